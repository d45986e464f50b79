import { useState } from 'react';
import { App, Badge, Button, Card, Empty, Form, Input, Space, Tag, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DictItemDto, DictSummary } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { FormModal } from '../../../components/form-modal';
import { PageContainer } from '../../../components/page';
import { Can, useAppModal } from '../../../lib/ui';
import { dictApi, dictKeys } from '../api';

/** 编辑显示名称: the tenant's own name of one item. */
function LabelDialog({ code, item, onClose }: { code: string; item: DictItemDto | null; onClose: () => void }) {
  const [form] = Form.useForm<{ label: string }>();
  const client = useQueryClient();
  const { message } = App.useApp();
  const save = useMutation({
    mutationFn: (label: string) => dictApi.setLabel(code, item!.value, label),
    onSuccess: () => {
      message.success('显示名称已保存');
      void client.invalidateQueries({ queryKey: dictKeys.all });
      onClose();
    },
  });
  return (
    <FormModal title="编辑显示名称" open={item !== null} onClose={onClose} form={form} saving={save.isPending} onSave={(v) => save.mutate(v.label.trim())}>
      {item && (
        <>
          <Typography.Paragraph type="secondary">只影响本租户用户看到的名称；值「{item.value}」与平台默认名称「{item.defaultLabel}」不变。</Typography.Paragraph>
          <Form.Item name="label" label="显示名称" initialValue={item.label} rules={[{ required: true, whitespace: true, message: '请输入显示名称' }, { max: 40, message: '显示名称最多 40 个字符' }]}>
            <Input maxLength={40} autoFocus />
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}

/** 数据字典 (/businessSys/dict): dictionaries on the left, the chosen one's items on the right. */
export default function DictPage() {
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState<DictItemDto | null>(null);
  const client = useQueryClient();
  const { message } = App.useApp();
  const modal = useAppModal();
  const list = useQuery({ queryKey: dictKeys.list(keyword), queryFn: () => dictApi.list(keyword || undefined) });
  const dicts = list.data ?? [];
  const current: DictSummary | undefined = dicts.find((d) => d.code === selected) ?? dicts[0];
  const code = current?.code ?? null;
  const reset = useMutation({
    mutationFn: (value: string) => dictApi.reset(code!, value),
    onSuccess: () => {
      message.success('已恢复默认名称');
      void client.invalidateQueries({ queryKey: dictKeys.all });
    },
  });

  return (
    <PageContainer title="数据字典">
      <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <Card size="small" title="字典" style={{ width: 300, flex: 'none' }} styles={{ body: { padding: 8 } }}>
          <Input.Search placeholder="字典名称、编码或字典项" allowClear onSearch={(v) => setKeyword(v.trim())} style={{ marginBottom: 8 }} aria-label="搜索字典" />
          {list.isLoading ? <Typography.Text type="secondary">加载中…</Typography.Text> : !dicts.length ? <Empty description="没有匹配的字典" /> : (
            <div role="listbox" aria-label="字典列表" style={{ maxHeight: 'calc(100vh - 300px)', overflowY: 'auto' }}>
              {dicts.map((d) => (
                <div
                  key={d.code} role="option" aria-selected={d.code === code} tabIndex={0}
                  onClick={() => setSelected(d.code)} onKeyDown={(e) => { if (e.key === 'Enter') setSelected(d.code); }}
                  style={{ padding: '6px 8px', borderRadius: 6, cursor: 'pointer', background: d.code === code ? '#e6f4ff' : undefined, display: 'flex', justifyContent: 'space-between', gap: 8 }}
                >
                  <span style={{ minWidth: 0 }}>
                    <div style={{ fontWeight: d.code === code ? 600 : 400 }}>{d.name}</div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>{d.code}</Typography.Text>
                  </span>
                  <Space size={4}>
                    {d.overrides > 0 && <Tag color="blue" style={{ marginInlineEnd: 0 }}>自定义 {d.overrides}</Tag>}
                    <Badge count={d.itemCount} color="#bfbfbf" overflowCount={999} />
                  </Space>
                </div>
              ))}
            </div>
          )}
        </Card>
        <div style={{ flex: 1, minWidth: 360 }}>
          {current ? (
            <DataTable<DictItemDto>
              key={current.code}
              title={<span>{current.name} <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 400 }}>{current.description}{current.overridable ? '；可为本租户设置显示名称' : '；名称由平台统一定义'}</Typography.Text></span>}
              queryKey={dictKeys.items(current.code)}
              fetchPage={async (p) => {
                const d = await dictApi.get(current.code);
                const k = String(p.keyword ?? '').trim();
                const rows = k ? d.items.filter((i) => i.value.includes(k) || i.label.includes(k) || i.defaultLabel.includes(k) || (i.description ?? '').includes(k)) : d.items;
                return { total: rows.length, rows: rows.slice((p.pageNo - 1) * p.pageSize, p.pageNo * p.pageSize) };
              }}
              filters={[{ name: 'keyword', label: '关键字', placeholder: '值、名称或说明' }]}
              exportUrl={dictApi.exportUrl}
              exportCode="dict:export"
              rowKey="value"
              columns={[
                { title: '值', dataIndex: 'value', width: 110 },
                { title: '显示名称', dataIndex: 'label', width: 220, render: (v: string, r) => <Space size={4}>{v}{r.overridden && <Tag color="blue">本租户</Tag>}</Space> },
                { title: '默认名称', dataIndex: 'defaultLabel', width: 200 },
                { title: '说明', dataIndex: 'description', render: (v: string | null) => v ?? '—' },
                { title: '排序', dataIndex: 'sort', width: 70 },
                ...(current.overridable ? [{
                  title: '操作', key: 'op', width: 190, fixed: 'right' as const,
                  render: (_: unknown, r: DictItemDto) => (
                    <Can code="dict:btn_edit">
                      <Space size={0}>
                        <Button type="link" size="small" onClick={() => setEditing(r)}>编辑显示名称</Button>
                        {r.overridden && (
                          <Button type="link" size="small" onClick={() => modal.confirm({
                            title: '恢复默认名称', content: `「${r.label}」将恢复为「${r.defaultLabel}」，本租户所有用户随之看到默认名称。`, okText: '恢复默认',
                            onOk: () => reset.mutateAsync(r.value),
                          })}>恢复默认</Button>
                        )}
                      </Space>
                    </Can>
                  ),
                }] : []),
              ]}
            />
          ) : <Card><Empty description={list.isLoading ? '加载中…' : '请选择左侧的字典'} /></Card>}
        </div>
      </div>
      {code && <LabelDialog code={code} item={editing} onClose={() => setEditing(null)} />}
    </PageContainer>
  );
}
