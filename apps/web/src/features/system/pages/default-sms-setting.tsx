import { useEffect } from 'react';
import { App, Card, Form, Input, InputNumber, Select, Spin, Switch, Tag } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mobilePhone, type SmsSettings } from '@kelvin/contracts/system';
import { PageContainer } from '../../../components/page';
import { Can, PreventClickButton, useCan } from '../../../lib/ui';
import { smsApi, systemKeys } from '../api';

const PROVIDERS: Record<string, string> = { record: '仅记录（内置，不外发）', aliyun: '阿里云短信' };

/** defaultSmsSetting (默认短信设置): the tenant's signature, switches per kind, alarm recipients and daily limit. */
export default function DefaultSmsSetting() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canEdit = useCan('defaultSmsSetting:btn_edit');
  const [form] = Form.useForm<SmsSettings>();
  const settings = useQuery({ queryKey: systemKeys.smsSetting, queryFn: smsApi.settings });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: ({ provider: _p, ...v }: SmsSettings) => smsApi.saveSettings(v),
    onSuccess: (s) => {
      message.success('保存成功');
      qc.setQueryData(systemKeys.smsSetting, s);
    },
  });
  return (
    <PageContainer title="默认短信设置">
      <Card size="small" style={{ maxWidth: 720 }}>
        {settings.isLoading ? <Spin /> : (
          <Form form={form} labelCol={{ span: 7 }} wrapperCol={{ span: 17 }} disabled={!canEdit} onFinish={(v) => save.mutate(v)}>
            <Form.Item label="短信服务商" extra="由服务器部署时配置，如需更换请联系平台管理员">
              <Tag color="blue">{PROVIDERS[settings.data?.provider ?? ''] ?? '其他服务商'}</Tag>
            </Form.Item>
            <Form.Item name="signName" label="短信签名" rules={[{ max: 20, message: '短信签名最多 20 个字符' }]} extra="服务商处已审核的签名，如 暖云能源"><Input maxLength={20} /></Form.Item>
            <Form.Item name="enabled" label="发送短信" valuePropName="checked"><Switch /></Form.Item>
            <Form.Item name="lowBalance" label="余额不足提醒" valuePropName="checked"><Switch /></Form.Item>
            <Form.Item name="cutOff" label="欠费停止供能通知" valuePropName="checked"><Switch /></Form.Item>
            <Form.Item name="alarm" label="设备告警通知" valuePropName="checked"><Switch /></Form.Item>
            <Form.Item
              name="alarmPhones"
              label="告警接收手机号"
              extra="输入后回车，最多 20 个"
              rules={[{ validator: async (_r, v: string[] = []) => {
                const bad = v.find((p) => !mobilePhone.safeParse(p).success);
                if (bad) throw new Error(`手机号格式不正确：${bad}`);
                if (v.length > 20) throw new Error('告警接收手机号最多 20 个');
              } }]}
            >
              <Select mode="tags" open={false} tokenSeparators={[',', '，', ' ']} placeholder="例如 13800000000" />
            </Form.Item>
            <Form.Item name="dailyLimit" label="每日发送上限" extra="本租户每天最多发送的条数，0 为不限"><InputNumber min={0} max={100000} precision={0} suffix="条" style={{ width: 200 }} /></Form.Item>
            <Form.Item wrapperCol={{ offset: 7 }}>
              <Can code="defaultSmsSetting:btn_edit"><PreventClickButton type="primary" loading={save.isPending} onClick={() => form.submit()}>保存</PreventClickButton></Can>
            </Form.Item>
          </Form>
        )}
      </Card>
    </PageContainer>
  );
}
