import { useEffect, useState } from 'react';
import { App, Button, Empty, Form, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { shareTeamBody, type ShareMemberRow, type ShareTeamRow } from '@kelvin/contracts';
import { AppDrawer } from '../../../components/app-drawer';
import { DataTable, updatedColumn } from '../../../components/data-table';
import { DeleteLink, FormModal } from '../../../components/form-modal';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { useChange } from '../../../lib/mutations';
import { zodRule } from '../../../lib/form';
import { Can, PreventClickButton } from '../../../lib/ui';
import { AccountSelect, parseYuan } from '../../accounts';
import { billingConfigApi, billingKeys } from '../api';
import { FieldGrid, PriceInput, yuanOrZeroRule, yuanOrZeroToFen } from '../components/config-fields';
import { QuoteTrial } from '../components/quote-trial';

type TeamValues = { teamName: string; remark?: string };
const area = (v: number) => `${v.toLocaleString('zh-CN', { maximumFractionDigits: 2 })}`;

/** Every member of a team (the list pages at 200; a team may be a whole building). */
async function allMembers(shareTeamId: number): Promise<ShareMemberRow[]> {
  const rows: ShareMemberRow[] = [];
  for (let pageNo = 1; ; pageNo++) {
    const page = await billingConfigApi.shareMembers({ shareTeamId, pageNo, pageSize: 200 });
    rows.push(...page.rows);
    if (rows.length >= page.total || !page.rows.length) return rows;
  }
}

/**
 * groupexpsshare (分摊组; projectType2 102/104): share teams — accounts whose cost of a plant is split between them
 * (design §8: fee_i = (C − C公共) × E_i / ΣE + C公共 × A_i / ΣA) — with their members (an account belongs to one team;
 * its area is its rooms' floor area) and a 分摊试算 of the formula on the members.
 */
export default function ShareTeamsPage() {
  const projectId = useProjectId();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<ShareTeamRow | 'new' | null>(null);
  const [members, setMembers] = useState<ShareTeamRow | null>(null);
  const [form] = Form.useForm<TeamValues>();
  const refresh = () => qc.invalidateQueries({ queryKey: billingKeys.share });
  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    if (editing !== 'new') form.setFieldsValue({ teamName: editing.name, remark: editing.remark });
  }, [editing, form]);
  const save = useChange(
    (v: TeamValues) => {
      const body = { projectId: projectId!, name: v.teamName.trim(), remark: v.remark?.trim() ?? '' };
      return editing === 'new' ? billingConfigApi.createShareTeam(body) : billingConfigApi.updateShareTeam((editing as ShareTeamRow).shareTeamId, body);
    },
    { done: '保存成功', refresh, then: () => setEditing(null) },
  );
  const remove = useChange((id: number) => billingConfigApi.removeShareTeams([id]), { done: '删除成功', refresh });

  if (projectId === null) return <NoProject title="分摊组" />;
  return (
    <PageContainer title="分摊组">
      <Typography.Text type="secondary">
        分摊组内各户分摊总表的费用：公共区域费用按面积分摊，其余按各户当量（运行时间或能量）分摊。总表和公共区域表在「设备关联」中设置。
      </Typography.Text>
      <DataTable<ShareTeamRow>
        queryKey={billingKeys.shareTeams(projectId)}
        fetchPage={billingConfigApi.shareTeams}
        params={{ projectId }}
        rowKey="shareTeamId"
        toolbar={<Can code="groupexpsshare:btn_add"><Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>新增</Button></Can>}
        columns={[
          { title: '分摊组名称', dataIndex: 'name', width: 180 },
          { title: '成员（户）', dataIndex: 'members', width: 100, align: 'right' },
          { title: '成员面积（m²）', dataIndex: 'memberArea', width: 130, align: 'right', render: area },
          { title: '总表', dataIndex: 'totalDevices', width: 80, align: 'right' },
          { title: '公共区域表', dataIndex: 'publicDevices', width: 100, align: 'right' },
          { title: '备注', dataIndex: 'remark', width: 180, render: (v: string) => v || '—' },
          updatedColumn(170),
          {
            title: '操作', key: 'op', width: 180, fixed: 'right', render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<TeamOutlined />} onClick={() => setMembers(r)}>成员</Button>
                <Can code="groupexpsshare:btn_edit"><Button type="link" size="small" onClick={() => setEditing(r)}>编辑</Button></Can>
                <DeleteLink code="groupexpsshare:btn_del" title={`确定删除分摊组「${r.name}」？其成员和关联设备一并移除`} onConfirm={() => remove.mutate(r.shareTeamId)} />
              </Space>
            ),
          },
        ]}
      />
      <FormModal<TeamValues> title={editing === 'new' ? '新增分摊组' : '编辑分摊组'} open={!!editing} onClose={() => setEditing(null)} form={form} saving={save.isPending} onSave={(v) => save.mutate(v)}>
        <Form.Item name="teamName" label="分摊组名称" rules={[zodRule(shareTeamBody.shape.name)]}><Input maxLength={40} placeholder="如 1 号楼空调分摊" /></Form.Item>
        <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多 200 字' }]}><Input.TextArea rows={2} maxLength={200} /></Form.Item>
      </FormModal>
      <MembersDrawer projectId={projectId} team={members} onClose={() => setMembers(null)} />
    </PageContainer>
  );
}

function MembersDrawer({ projectId, team, onClose }: { projectId: number; team: ShareTeamRow | null; onClose: () => void }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [adding, setAdding] = useState<number[]>([]);
  const teamId = team?.shareTeamId ?? null;
  const teams = useQuery({
    queryKey: [...billingKeys.shareTeams(projectId), 'options'],
    queryFn: () => billingConfigApi.shareTeams({ projectId, pageNo: 1, pageSize: 200 }),
    enabled: !!team,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: billingKeys.share });
  const add = useMutation({
    mutationFn: () => billingConfigApi.addShareMembers(teamId!, adding),
    onSuccess: () => {
      message.success('已添加');
      setAdding([]);
      void refresh();
    },
  });
  const move = useMutation({
    mutationFn: ({ id, to }: { id: number; to: number }) => billingConfigApi.moveShareMember(id, to),
    onSuccess: () => {
      message.success('已移到其他分摊组');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => billingConfigApi.removeShareMembers([id]),
    onSuccess: () => {
      message.success('已移除');
      void refresh();
    },
  });
  const others = (teams.data?.rows ?? []).filter((t) => t.shareTeamId !== teamId);
  return (
    <AppDrawer rootClassName="kv-billing-drawer" open={!!team} title={`分摊组成员 · ${team?.name ?? ''}`} size={920} onClose={onClose} destroyOnHidden>
      {team && (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
          <Can code="groupexpsshare:btn_add">
            <Space.Compact style={{ width: '100%' }}>
              <div style={{ flex: 1 }} data-testid="member-picker"><AccountSelect projectId={projectId} multiple value={adding} onChange={((v: number[]) => setAdding(v ?? [])) as never} placeholder="选择本项目的账户（输入姓名、手机号或房间搜索）" /></div>
              <PreventClickButton type="primary" icon={<PlusOutlined />} disabled={!adding.length} loading={add.isPending} onClick={() => add.mutate()}>添加成员</PreventClickButton>
            </Space.Compact>
          </Can>
          <DataTable<ShareMemberRow>
            queryKey={billingKeys.shareMembers(teamId)}
            fetchPage={billingConfigApi.shareMembers}
            params={{ shareTeamId: teamId! }}
            rowKey="id"
            defaultPageSize={10}
            columns={[
              { title: '户名', dataIndex: 'accountName', width: 150 },
              { title: '房间', dataIndex: 'rooms', width: 220, render: (v: string) => v || '—' },
              { title: '面积（m²）', dataIndex: 'area', width: 110, align: 'right', render: area },
              {
                title: '操作', key: 'op', width: 250, fixed: 'right', render: (_, m) => (
                  <Space size={4}>
                    <Can code="groupexpsshare:btn_edit">
                      <Select size="small" style={{ width: 150 }} placeholder="移到其他分摊组" value={null} disabled={!others.length}
                        options={others.map((t) => ({ value: t.shareTeamId, label: t.name }))} onChange={(to: number) => move.mutate({ id: m.id, to })} />
                    </Can>
                    <DeleteLink code="groupexpsshare:btn_del" label="移除" title={`将「${m.accountName}」移出本分摊组？`} onConfirm={() => remove.mutate(m.id)} />
                  </Space>
                ),
              },
            ]}
          />
          <ShareTrial teamId={team.shareTeamId} />
        </div>
      )}
    </AppDrawer>
  );
}

type TrialValues = { total: string; public: string; eq?: Record<string, number | null> };

/** 分摊试算: the team's members with their areas, equivalents typed here, a total and a public cost in 元. */
function ShareTrial({ teamId }: { teamId: number }) {
  const members = useQuery({ queryKey: [...billingKeys.shareMembers(teamId), 'all'], queryFn: () => allMembers(teamId) });
  const rows = members.data ?? [];
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={members.isLoading ? '加载中…' : '添加成员后可进行分摊试算'} />;
  return (
    <QuoteTrial<TrialValues>
      title="分摊试算"
      hint="费用_i =（总费用 − 公共费用）× 当量_i ÷ Σ当量 + 公共费用 × 面积_i ÷ Σ面积。当量为各户的运行时间当量（h）或能量当量（kWh）。"
      build={async (v) => {
        const total = parseYuan(v.total);
        const pub = yuanOrZeroToFen(v.public);
        if (!total.ok || !pub.ok) throw new Error('金额有误');
        return {
          method: 'share',
          params: { totalFen: total.fen, publicFen: pub.fen },
          // the quote's lines are labelled by id: the name where it is unique in the team
          inputs: rows.map((m) => ({ id: rows.filter((x) => x.accountName === m.accountName).length === 1 && m.accountName ? m.accountName.slice(0, 40) : m.accountId, equivalent: v.eq?.[String(m.accountId)] ?? 0, area: m.area })),
        };
      }}
    >
      <FieldGrid>
        <Form.Item name="total" label="总费用（元）" rules={[{ validator: async (_r, x: string) => { const r = parseYuan(x); if (!r.ok) throw new Error(r.message); } }]}><PriceInput placeholder="如 1000" /></Form.Item>
        <Form.Item name="public" label="其中公共费用（元）" initialValue="0" rules={[yuanOrZeroRule('公共费用')]}><PriceInput placeholder="如 200 或 0" /></Form.Item>
      </FieldGrid>
      <Table<ShareMemberRow>
        size="small"
        rowKey="id"
        pagination={rows.length > 10 ? { pageSize: 10, showTotal: (n) => `共 ${n} 户` } : false}
        dataSource={rows}
        style={{ marginBottom: 12 }}
        columns={[
          { title: '户名', dataIndex: 'accountName' },
          { title: '面积（m²）', dataIndex: 'area', width: 110, align: 'right', render: area },
          {
            title: '当量', key: 'eq', width: 160, render: (_, m) => (
              <Form.Item name={['eq', String(m.accountId)]} rules={[{ required: true, message: '请输入当量' }]} style={{ margin: 0 }}>
                <InputNumber min={0} style={{ width: '100%' }} aria-label={`${m.accountName}的当量`} />
              </Form.Item>
            ),
          },
        ]}
      />
    </QuoteTrial>
  );
}
