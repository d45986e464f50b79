import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { AppModal, PreventClickButton, useAppModal } from '../../../lib/ui';
import { MoneyAttempt, settleAttempt, type AttemptState } from '../idempotency';
import { parseYuanWithin } from '../money';

/** An amount in 元 (text, never a float): validated on its digits, ≤ 2 decimals, positive, within maxFen. */
export function yuanRule(maxFen?: number | null, what = '金额'): Rule {
  return {
    validator: async (_r, value: unknown) => {
      const r = parseYuanWithin(value as string, maxFen, what);
      if (!r.ok) throw new Error(r.message);
    },
  };
}

/** 元 → 分 of a field the form validated with yuanRule. */
export function fenOf(value: unknown): number {
  const r = parseYuanWithin(value as string, null);
  if (!r.ok) throw new Error(r.message);
  return r.fen;
}

export function YuanInput(props: { value?: string; onChange?: (v: string) => void; disabled?: boolean; placeholder?: string; autoFocus?: boolean }) {
  return <Input {...props} onChange={(e) => props.onChange?.(e.target.value)} inputMode="decimal" suffix="元" maxLength={16} placeholder={props.placeholder ?? '如 100 或 100.50'} />;
}

/**
 * The Idempotency-Key of a dialog: a new one each time the dialog opens; `run` sends it and settles it (kept after no
 * answer, renewed after a refusal — see idempotency.ts).
 */
export function useMoneyAttempt(open: boolean) {
  const ref = useRef<MoneyAttempt | null>(null);
  if (!ref.current) ref.current = new MoneyAttempt();
  const [state, setState] = useState<AttemptState>('ready');
  useEffect(() => {
    if (open) {
      ref.current!.reset();
      setState('ready');
    }
  }, [open]);
  const run = async <R,>(send: (key: string) => Promise<R>): Promise<R> => {
    const a = ref.current!;
    try {
      const r = await send(a.key);
      a.succeeded();
      return r;
    } catch (e) {
      settleAttempt(a, e);
      throw e;
    } finally {
      setState(a.state);
    }
  };
  return { run, state, locked: state === 'unknown', key: () => ref.current!.key };
}

/**
 * Every money action's dialog: the form, then a confirmation that repeats the amount, then one request carrying the
 * dialog's Idempotency-Key. After no answer the inputs lock and the button retries the same request.
 */
export function MoneyDialog<V extends object, R>({ open, title, okText, okDisabled, danger, width, form, initialValues, confirm, submit, onDone, onClose, children, extra }: {
  open: boolean;
  title: ReactNode;
  okText: string;
  okDisabled?: boolean;
  danger?: boolean;
  width?: number;
  form: FormInstance<V>;
  initialValues?: Partial<V>;
  /** the confirmation's text, from the validated values */
  confirm: (values: V) => ReactNode;
  submit: (values: V, idempotencyKey: string) => Promise<R>;
  onDone: (result: R, values: V) => void;
  onClose: () => void;
  children: ReactNode;
  /** shown above the form (what the account holds …) */
  extra?: ReactNode;
}) {
  const modal = useAppModal();
  const attempt = useMoneyAttempt(open);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      form.resetFields();
      if (initialValues) form.setFieldsValue(initialValues as never);
    }
    // initialValues is read when the dialog opens only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, form]);

  const send = async (values: V) => {
    setBusy(true);
    try {
      const r = await attempt.run((key) => submit(values, key));
      onDone(r, values);
    } catch {
      // the HTTP client showed the reason; the attempt decided whether the key is kept
    } finally {
      setBusy(false);
    }
  };
  const go = () => form.validateFields().then((values) => {
    if (attempt.locked) return void send(values);
    modal.confirm({ title: '请确认', content: confirm(values), okText: '确定', cancelText: '取消', okButtonProps: { danger }, onOk: () => void send(values) });
  }, () => undefined /* the form shows what is wrong */);

  return (
    <AppModal open={open} title={title} width={width ?? 520} onCancel={onClose} footer={[
      <Button key="c" onClick={onClose} disabled={busy}>{attempt.locked ? '稍后再说' : '取消'}</Button>,
      <PreventClickButton key="ok" type="primary" danger={danger} disabled={okDisabled && !attempt.locked} loading={busy} onClick={go}>{attempt.locked ? '重试' : okText}</PreventClickButton>,
    ]}>
      {extra}
      {attempt.locked && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message="上次提交没有收到服务器应答，结果未知"
          description="请点击「重试」：重试使用同一请求编号，服务器只会处理一次，不会重复入账。金额已锁定。" />
      )}
      <Form form={form} layout="vertical" disabled={attempt.locked || busy}>{children}</Form>
    </AppModal>
  );
}
