import { App, Card, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { changePasswordRequest, passwordForUser } from '@kelvin/contracts/admin';
import { PageContainer } from '../../../components/page';
import { zodRule } from '../../../lib/form';
import { Can, PreventClickButton } from '../../../lib/ui';
import { useSession } from '../../../stores/session';
import { userApi } from '../api';
import { ConfirmPasswordItem } from '../../../components/form-modal';

/** changepassword (修改密码): the current password is required; other sessions of the user end. */
export default function ChangePassword() {
  const { message } = App.useApp();
  const username = useSession((s) => s.user?.username ?? '');
  const [form] = Form.useForm();
  const change = useMutation({
    mutationFn: (v: { oldPassword: string; newPassword: string }) => userApi.changeOwnPassword(v.oldPassword, v.newPassword),
    onSuccess: () => {
      message.success('密码已修改，其他设备上的登录已退出');
      form.resetFields();
    },
  });
  return (
    <PageContainer title="修改密码">
      <Card size="small" style={{ maxWidth: 520 }}>
        <Form form={form} layout="vertical" onFinish={(v) => change.mutate(v)}>
          <Form.Item label="账号"><Input value={username} disabled /></Form.Item>
          <Form.Item name="oldPassword" label="当前密码" required rules={[zodRule(changePasswordRequest.shape.oldPassword)]}>
            <Input.Password maxLength={128} autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="newPassword" label="新密码" required rules={[zodRule(passwordForUser(username))]} extra="至少 8 个字符（最多 128 个），不能与账号相同，不能是常见密码">
            <Input.Password maxLength={128} autoComplete="new-password" />
          </Form.Item>
          <ConfirmPasswordItem of="newPassword" />
          <Can code="changepassword:btn_edit" fallback={<span style={{ color: '#999' }}>您没有修改密码的权限，请联系管理员</span>}>
            <PreventClickButton type="primary" loading={change.isPending} onClick={() => form.submit()}>修改密码</PreventClickButton>
          </Can>
        </Form>
      </Card>
    </PageContainer>
  );
}
