import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { feedback } from '../lib/feedback';
import { withDialogDefaults } from '../lib/ui';

/** Registers the context-bound message/modal instances for plain modules (the HTTP client). */
function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  feedback.message = message;
  feedback.modal = withDialogDefaults(modal);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff', borderRadius: 6 } }} modal={{ mask: { closable: false } }} drawer={{ mask: { closable: false } }}>
      <AntApp>
        <FeedbackBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}
