import { lazy, Suspense, useState } from 'react';
import { Button, Tooltip } from 'antd';
import { CountBadge } from './bits';
import { BugOutlined } from '@ant-design/icons';
import { useErrorLog } from '../lib/error-log';

// the table is loaded only when the dialog opens (keeps the shell small)
const ErrorLogModal = lazy(() => import('./error-log-modal'));

/** The 'bug日志' dialog: every logged client error with message, url and stack, newest first; clearable. */
export function ErrorLogButton() {
  const errors = useErrorLog((s) => s.errors);
  const [open, setOpen] = useState(false);
  if (!errors.length && !open) return null;
  return (
    <>
      <Tooltip title="bug日志">
        <Button type="text" aria-label="bug日志" onClick={() => setOpen(true)}>
          <CountBadge count={errors.length}><BugOutlined style={{ fontSize: 18, color: '#cf1322' }} /></CountBadge>
        </Button>
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <ErrorLogModal onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
