import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';

/**
 * The antd message/modal instances bound to the app's context (theme, zh-CN locale), registered once by <FeedbackBridge/>
 * so plain modules (the HTTP client) can show the error catalogue's toasts and confirm boxes.
 */
export const feedback: { message: MessageInstance | null; modal: ModalHookAPI | null } = { message: null, modal: null };

/** Error toasts stay 5 s (spec §9). */
export const ERROR_TOAST_SECONDS = 5;

export function toastError(text: string) {
  feedback.message?.error({ content: text, duration: ERROR_TOAST_SECONDS });
}
export function toastWarning(text: string) {
  feedback.message?.warning({ content: text, duration: ERROR_TOAST_SECONDS });
}
export function toastSuccess(text: string) {
  feedback.message?.success(text);
}
