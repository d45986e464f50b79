import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { App, Button, Modal, type ButtonProps, type ModalProps } from 'antd';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import { useSession } from '../stores/session';

/** Spec §5: prevent-double-click buttons ignore repeated clicks for 2 s. */
export const DOUBLE_CLICK_INTERVAL_MS = 2000;

export function PreventClickButton({ onClick, interval = DOUBLE_CLICK_INTERVAL_MS, ...props }: ButtonProps & { interval?: number }) {
  const last = useRef(0);
  return (
    <Button
      {...props}
      onClick={(e) => {
        const now = Date.now();
        if (now - last.current < interval) return;
        last.current = now;
        onClick?.(e);
      }}
    />
  );
}

/**
 * Spec §5: dialogs and drawers do not close on backdrop click or Escape by default — the one default of the console,
 * used by <AppModal>, <AppDrawer> (components/app-drawer) and every imperative box (useAppModal, the shell's feedback).
 */
export const DIALOG_DEFAULTS = { maskClosable: false, keyboard: false } as const;

export function AppModal(props: ModalProps) {
  return <Modal {...DIALOG_DEFAULTS} destroyOnHidden {...props} />;
}

/** antd's imperative boxes (confirm, info, …) with the console's dialog defaults. */
export function withDialogDefaults(modal: ModalHookAPI): ModalHookAPI {
  return {
    ...modal,
    confirm: (config) => modal.confirm({ ...DIALOG_DEFAULTS, ...config }),
    info: (config) => modal.info({ ...DIALOG_DEFAULTS, ...config }),
    success: (config) => modal.success({ ...DIALOG_DEFAULTS, ...config }),
    error: (config) => modal.error({ ...DIALOG_DEFAULTS, ...config }),
    warning: (config) => modal.warning({ ...DIALOG_DEFAULTS, ...config }),
  };
}

/** The imperative boxes for screens (instead of App.useApp().modal). */
export function useAppModal(): ModalHookAPI {
  const { modal } = App.useApp();
  return useMemo(() => withDialogDefaults(modal), [modal]);
}

/** Renders children only when the user holds the code (convenience only: the server is the guard). */
export function Can({ code, children, fallback = null }: { code: string; children: ReactNode; fallback?: ReactNode }) {
  const has = useSession((s) => Boolean(s.menus[code] || s.elements[code]));
  return <>{has ? children : fallback}</>;
}

export function useCan(code: string): boolean {
  return useSession((s) => Boolean(s.menus[code] || s.elements[code]));
}

/** Spec §5: the F12 key is blocked where this is applied (login and big screens). */
export function useBlockF12() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F12') e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export const MOBILE_MAX_WIDTH = 767;
export function useIsMobile(): boolean {
  const query = `(max-width: ${MOBILE_MAX_WIDTH}px)`;
  const [mobile, setMobile] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const on = () => setMobile(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return mobile;
}
