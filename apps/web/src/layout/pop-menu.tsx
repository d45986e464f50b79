import { useState, type ReactNode } from 'react';
import { Popover } from 'antd';

/**
 * A small popup menu on antd's Popover: the shell's dropdowns (user menu, quick targets, tag context menu, mobile
 * selectors). antd's Menu/Dropdown would cost ~30 KiB gzipped of the shell's 250 KiB budget.
 */
export interface PopMenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  selected?: boolean;
  divider?: boolean;
}

export function PopMenu({ items, onClick, children, trigger = 'click', placement = 'bottomRight', maxHeight = '60vh', testId }: {
  items: PopMenuItem[];
  onClick: (key: string) => void;
  children: ReactNode;
  trigger?: 'click' | 'contextMenu' | 'hover';
  placement?: 'bottomRight' | 'bottomLeft' | 'bottom';
  maxHeight?: string | number;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  const content = (
    <div role="menu" data-testid={testId} style={{ minWidth: 140, maxHeight, overflow: 'auto', margin: -8 }}>
      {items.map((i) =>
        i.divider ? (
          <div key={i.key} role="separator" style={{ height: 1, background: '#f0f0f0', margin: '4px 0' }} />
        ) : (
          <div
            key={i.key}
            role="menuitem"
            aria-disabled={i.disabled || undefined}
            className={`kv-pop-item${i.disabled ? ' is-disabled' : ''}${i.selected ? ' is-selected' : ''}${i.danger ? ' is-danger' : ''}`}
            onClick={() => {
              if (i.disabled) return;
              setOpen(false);
              onClick(i.key);
            }}
          >
            {i.icon && <span style={{ marginInlineEnd: 8 }}>{i.icon}</span>}
            {i.label}
          </div>
        ),
      )}
    </div>
  );
  return (
    <Popover content={content} trigger={trigger} open={open} onOpenChange={setOpen} placement={placement} arrow={false} destroyOnHidden>
      {children}
    </Popover>
  );
}
