import { useEffect } from 'react';
import { App, Card, Form, Spin } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MoneySettingsBody } from '@kelvin/contracts';
import { Can, PreventClickButton, useCan } from '../../../lib/ui';
import { accountApi, accountKeys, formatFen } from '../../accounts';
import { FieldGrid, PriceInput, yuanOrZeroRule, yuanOrZeroToFen } from './config-fields';

type Values = { warning1: string; warning2: string; overdraft: string };
const fen = (v: string) => {
  const r = yuanOrZeroToFen(v);
  if (!r.ok) throw new Error(r.message);
  return r.fen;
};
const yuan = (f: number) => formatFen(f).replace(/,/g, '');

/**
 * The prepaid loop's money settings of the project (预警一 → 预警二 → 断开 below the overdraft), kept by the accounts
 * module (GET/PUT /api/v1/account/settings/:projectId, the same call as 缴费上限): only these three are changed here,
 * the project's top-up limits are sent back as they are.
 */
export function MoneySettingsCard({ projectId, code }: { projectId: number; code: string }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canEdit = useCan(`${code}:btn_edit`);
  const [form] = Form.useForm<Values>();
  const q = useQuery({ queryKey: accountKeys.settings(projectId), queryFn: () => accountApi.settings(projectId) });
  useEffect(() => {
    if (q.data) form.setFieldsValue({ warning1: yuan(q.data.warning1Fen), warning2: yuan(q.data.warning2Fen), overdraft: yuan(q.data.overdraftFen) });
  }, [q.data, form]);
  const save = useMutation({
    mutationFn: (v: Values) => {
      const { projectId: _p, ...current } = q.data!;
      const body: MoneySettingsBody = { ...current, warning1Fen: fen(v.warning1), warning2Fen: fen(v.warning2), overdraftFen: fen(v.overdraft) };
      return accountApi.saveSettings(projectId, body);
    },
    onSuccess: (s) => {
      message.success('保存成功');
      qc.setQueryData(accountKeys.settings(projectId), s);
    },
  });
  return (
    <Card size="small" variant="borderless" title="余额预警与透支" style={{ maxWidth: 760 }} data-testid="money-settings">
      {q.isLoading ? <Spin /> : (
        <Form form={form} layout="vertical" disabled={!canEdit}>
          <FieldGrid columns={3}>
            <Form.Item name="warning1" label="余额预警一（元）" rules={[yuanOrZeroRule('余额预警一')]} extra="余额降到此值时发出预警一">
              <PriceInput />
            </Form.Item>
            <Form.Item name="warning2" label="余额预警二（元）" dependencies={['warning1']} extra="不高于预警一" rules={[yuanOrZeroRule('余额预警二'), ({ getFieldValue }) => ({
              validator: async (_r, v: string) => {
                const a = yuanOrZeroToFen(getFieldValue('warning1') as string);
                const b = yuanOrZeroToFen(v);
                if (a.ok && b.ok && b.fen > a.fen) throw new Error('预警二金额不能高于预警一');
              },
            })]}>
              <PriceInput />
            </Form.Item>
            <Form.Item name="overdraft" label="透支额度（元）" rules={[yuanOrZeroRule('透支额度')]} extra="余额低于 0 减此额度时断开供能；0 为余额 ≤ 0 即断开">
              <PriceInput />
            </Form.Item>
          </FieldGrid>
          <Can code={`${code}:btn_edit`}>
            <PreventClickButton loading={save.isPending} onClick={() => form.validateFields().then((v) => save.mutate(v), () => undefined)}>保存预警设置</PreventClickButton>
          </Can>
        </Form>
      )}
    </Card>
  );
}
