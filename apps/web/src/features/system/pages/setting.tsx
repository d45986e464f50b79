import { useEffect } from 'react';
import { App, Card, Form, Input, InputNumber, Spin, Switch } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SYSTEM_PARAMS, systemParamsPatch, type SystemParamDef, type SystemParams } from '@kelvin/contracts/system';
import { PageContainer } from '../../../components/page';
import { Can, PreventClickButton, useCan } from '../../../lib/ui';
import { systemApi, systemKeys } from '../api';

function field(p: SystemParamDef) {
  if (p.kind === 'bool') return <Switch />;
  if (p.kind === 'text') return <Input maxLength={p.max} />;
  return <InputNumber min={p.min} max={p.max} precision={p.integer ? 0 : 2} suffix={p.unit} style={{ width: 200 }} />;
}

/** setting_n (系统参数, the gear): the tenant's system parameters, rendered from their definitions in contracts. */
export default function Setting() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canEdit = useCan('setting_n:btn_edit');
  const [form] = Form.useForm<SystemParams>();
  const params = useQuery({ queryKey: systemKeys.params, queryFn: systemApi.params });
  useEffect(() => {
    if (params.data) form.setFieldsValue(params.data);
  }, [params.data, form]);
  const save = useMutation({
    mutationFn: (v: SystemParams) => {
      // only what changed is sent: editSystemParam takes a partial set
      const changed = Object.fromEntries(Object.entries(v).filter(([k, value]) => params.data?.[k as keyof SystemParams] !== value));
      const parsed = systemParamsPatch.safeParse(changed);
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? '参数不正确');
      return systemApi.editParams(parsed.data);
    },
    onSuccess: (saved) => {
      message.success('保存成功');
      qc.setQueryData(systemKeys.params, saved);
    },
    onError: (err) => {
      if (!(err as { code?: number }).code) message.error((err as Error).message);
    },
  });
  return (
    <PageContainer title="系统参数">
      <Card size="small" style={{ maxWidth: 720 }}>
        {params.isLoading ? <Spin /> : (
          <Form form={form} layout="horizontal" labelCol={{ span: 8 }} wrapperCol={{ span: 16 }} disabled={!canEdit} onFinish={(v) => save.mutate(v)}>
            {(SYSTEM_PARAMS as readonly SystemParamDef[]).map((p) => (
              <Form.Item key={p.key} name={p.key} label={p.label} extra={p.help} valuePropName={p.kind === 'bool' ? 'checked' : 'value'}
                rules={p.kind === 'number' ? [{ required: true, message: `请输入${p.label}` }] : undefined}
              >
                {field(p)}
              </Form.Item>
            ))}
            <Form.Item wrapperCol={{ offset: 8 }}>
              <Can code="setting_n:btn_edit"><PreventClickButton type="primary" loading={save.isPending} onClick={() => form.submit()}>保存</PreventClickButton></Can>
            </Form.Item>
          </Form>
        )}
      </Card>
    </PageContainer>
  );
}
