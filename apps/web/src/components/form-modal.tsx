import type { ReactNode } from 'react';
import { Button, Form, Input, Popconfirm, type FormInstance } from 'antd';
import { AppModal, Can, PreventClickButton } from '../lib/ui';

/**
 * The console's form dialog: a vertical form, 取消 / 保存 (validated first; 保存 ignores repeated clicks), never closed
 * by the backdrop. `name` prefixes the inputs' ids; `okDanger` for a dialog whose action ends something (关闭 …).
 */
export function FormModal<T>({ title, open, onClose, form, name, saving, onSave, width, okText = '保存', okDanger, children }: {
  title: ReactNode;
  open: boolean;
  onClose: () => void;
  form: FormInstance<T>;
  name?: string;
  saving: boolean;
  onSave: (values: T) => void;
  width?: number;
  okText?: ReactNode;
  okDanger?: boolean;
  children: ReactNode;
}) {
  return (
    <AppModal
      title={title}
      open={open}
      width={width}
      onCancel={onClose}
      footer={[
        <Button key="c" onClick={onClose}>取消</Button>,
        <PreventClickButton key="ok" type="primary" danger={okDanger} loading={saving} onClick={() => form.validateFields().then(onSave, () => undefined /* the form shows what is wrong */)}>{okText}</PreventClickButton>,
      ]}
    >
      <Form form={form} name={name} layout="vertical">{children}</Form>
    </AppModal>
  );
}

/**
 * A 删除 (移除, 解绑 …): shown with the element code only, and asks first (`description`: what follows from it). A row's
 * link; `button`: the plain button of a detail form or card.
 */
export function DeleteLink({ code, title, description, onConfirm, label = '删除', button = false }: {
  code: string;
  title: string;
  description?: ReactNode;
  onConfirm: () => void;
  label?: string;
  button?: boolean;
}) {
  return (
    <Can code={code}>
      <Popconfirm title={title} description={description} onConfirm={onConfirm}>
        {button ? <Button danger>{label}</Button> : <Button type="link" size="small" danger>{label}</Button>}
      </Popconfirm>
    </Can>
  );
}

/** 确认新密码: must repeat the password field `of`. */
export function ConfirmPasswordItem({ of }: { of: string }) {
  return (
    <Form.Item
      name="confirm"
      label="确认新密码"
      dependencies={[of]}
      rules={[({ getFieldValue }) => ({ validator: async (_r, v) => { if (v !== getFieldValue(of)) throw new Error('两次输入的密码不一致'); } })]}
    >
      <Input.Password maxLength={128} autoComplete="new-password" />
    </Form.Item>
  );
}
