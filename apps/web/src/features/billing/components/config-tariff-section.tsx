import { useEffect, useRef, type ReactNode } from 'react';
import { Alert, App, Card, Empty, Form, Input, Spin, Tag, Typography, type FormInstance, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { billingSchemeName, type TariffBody, type TariffDoc, type TariffVersionDto } from '@kelvin/contracts';
import { DataTable } from '../../../components/data-table';
import { NoProject, PageContainer, useProjectId } from '../../../components/page';
import { formatDateTime } from '../../../lib/time';
import { Can, PreventClickButton, useCan } from '../../../lib/ui';
import { useProject } from '../../../stores/project';
import { billingConfigApi, billingKeys } from '../api';
import { EffectiveItems, effectiveFromOf, type EffectiveValues } from './config-effective';

type SectionKey = keyof TariffDoc;
export type SectionValues = Partial<TariffDoc> & EffectiveValues & { remark?: string };

/** The document without what belongs to the version (id, author, time, when it applies, why). */
export function docOf(v: TariffVersionDto): TariffDoc {
  const { id: _id, projectId: _p, createdBy: _b, createdAt: _c, effectiveFrom: _e, remark: _r, ...doc } = v;
  return doc;
}

const isPlain = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
/** The edited part over the saved one: objects field by field (a part the form does not show is carried over), the rest replaced. */
function merge<T>(saved: T, edited: unknown): T {
  if (edited === undefined) return saved;
  if (!isPlain(saved) || !isPlain(edited)) return edited as T;
  const out: Record<string, unknown> = { ...saved };
  for (const [k, v] of Object.entries(edited)) out[k] = merge(saved[k], v);
  return out as T;
}

function pick(doc: TariffDoc, keys: SectionKey[]): Partial<TariffDoc> {
  return Object.fromEntries(keys.map((k) => [k, doc[k]])) as Partial<TariffDoc>;
}

export interface TariffSectionProps {
  /** the screen's title (its menu title) */
  title: string;
  /** the screen's menu code: `${code}:btn_edit` shows the save button */
  code: string;
  /** the top-level parts of the document this screen edits; the rest is carried over from the version in force */
  keys: SectionKey[];
  /** one line under the title: what the screen is for */
  intro?: ReactNode;
  /** the section's form items (a function: they depend on the version in force, e.g. its scheme's unit) */
  children: ReactNode | ((current: TariffVersionDto) => ReactNode);
  /** the section's values in the history */
  historyColumns: TableColumnsType<TariffVersionDto>;
  /** beside the form (the 计费试算 panel reads the form being edited) */
  aside?: (form: FormInstance<SectionValues>, current: TariffVersionDto) => ReactNode;
  /** below the form (projectpara's money settings) */
  after?: (projectId: number) => ReactNode;
  formWidth?: number;
}

/**
 * A screen editing one section of the project's tariff document (design §8): the form shows the version in force
 * now; 保存 makes a new immutable version — that version with this section changed — from 生效时间 on (runs over
 * earlier periods keep the earlier prices), and the history below lists every version with who saved it and when.
 */
export function TariffSectionPage(props: TariffSectionProps) {
  const projectId = useProjectId();
  if (projectId === null) return <NoProject title={props.title} />;
  return (
    <PageContainer title={props.title}>
      {props.intro && <Typography.Text type="secondary">{props.intro}</Typography.Text>}
      <TariffSection key={projectId} projectId={projectId} {...props} />
    </PageContainer>
  );
}

function TariffSection({ projectId, code, keys, children, historyColumns, aside, after, formWidth = 760 }: TariffSectionProps & { projectId: number }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canEdit = useCan(`${code}:btn_edit`);
  const [form] = Form.useForm<SectionValues>();
  const current = useQuery({ queryKey: billingKeys.tariff(projectId), queryFn: () => billingConfigApi.tariff(projectId) });
  const cur = current.data;
  /** the versions that changed this screen's part (filled with the history) */
  const changed = useRef(new Set<number>());
  const first = useRef<number | null>(null);

  useEffect(() => {
    if (!cur) return;
    form.resetFields();
    form.setFieldsValue({ ...pick(docOf(cur), keys), when: 'now', effectiveAt: null, remark: '' });
    // keys is a constant of the screen
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cur, form]);

  const save = useMutation({
    mutationFn: (v: SectionValues) => {
      const base = docOf(cur!);
      const doc = { ...base };
      for (const k of keys) (doc as Record<string, unknown>)[k] = merge(base[k], v[k]);
      const effectiveFrom = effectiveFromOf(v);
      const body: TariffBody = { ...doc, effectiveFrom, remark: v.remark?.trim() ?? '' };
      return billingConfigApi.saveTariff(projectId, body);
    },
    onSuccess: (saved) => {
      const now = saved.effectiveFrom <= Date.now();
      message.success(now ? '保存成功，已生效' : `保存成功，将于 ${formatDateTime(saved.effectiveFrom, 'YYYY-MM-DD HH:mm')} 生效`);
      void qc.invalidateQueries({ queryKey: billingKeys.tariff(projectId) });
      // the scheme decides menus and report groups: the project switcher reads it again
      const store = useProject.getState();
      if (now && keys.includes('scheme') && store.current?.id === projectId && store.billingScheme !== saved.scheme) void store.choose(projectId).catch(() => undefined);
    },
  });

  if (current.isLoading || !cur) return current.isError ? <Empty description="计费配置加载失败" /> : <Spin />;
  return (
    <>
      <Alert
        type={cur.id === 0 ? 'warning' : 'info'}
        showIcon
        data-testid="tariff-current"
        title={cur.id === 0
          ? '本项目尚未保存过计费配置：下面是默认值，保存后生效'
          : <>当前生效版本：{formatDateTime(cur.effectiveFrom, 'YYYY-MM-DD HH:mm')} 起生效，{cur.createdBy ?? '—'} 于 {formatDateTime(cur.createdAt, 'YYYY-MM-DD HH:mm')} 保存；方案 {billingSchemeName(cur.scheme)}</>}
      />
      <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start', flexWrap: 'wrap' }}>
        <Card size="small" variant="borderless" title="当前配置" style={{ flex: `1 1 ${Math.min(formWidth, 560)}px`, maxWidth: formWidth }}>
          <Form form={form} layout="vertical" disabled={!canEdit} data-testid="tariff-form">
            {typeof children === 'function' ? children(cur) : children}
            <EffectiveItems extra="已出账时段的价格不会改变：生效时间不能早于最近一次出账的截止时间" />
            <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多 200 字' }]}>
              <Input.TextArea rows={2} maxLength={200} placeholder="修改原因（可不填），记入修改记录" />
            </Form.Item>
            <Can code={`${code}:btn_edit`}>
              <PreventClickButton type="primary" loading={save.isPending} onClick={() => form.validateFields().then(
                // the whole store, not only the fields on screen (the last ladder tier's bound has no input)
                () => save.mutate(form.getFieldsValue(true) as SectionValues),
                () => undefined,
              )}>保存</PreventClickButton>
            </Can>
          </Form>
        </Card>
        {aside && <div style={{ flex: '1 1 380px', maxWidth: 560 }}>{aside(form, cur)}</div>}
      </div>
      {after?.(projectId)}
      <div data-testid="tariff-history">
      <DataTable<TariffVersionDto>
        title="修改记录"
        queryKey={billingKeys.tariffVersions(projectId)}
        fetchPage={async ({ pageNo, pageSize }) => {
          // the whole history comes in one answer (a version per save); the table pages it here, and marks the
          // versions that changed this screen's part (the list is newest first: compare with the next one down; the
          // first save has nothing before it to compare with)
          const all = await billingConfigApi.tariffVersions(projectId);
          const part = (v: TariffVersionDto) => JSON.stringify(pick(docOf(v), keys));
          changed.current = new Set(all.filter((v, i) => i < all.length - 1 && part(v) !== part(all[i + 1]!)).map((v) => v.id));
          first.current = all.at(-1)?.id ?? null;
          return { total: all.length, rows: all.slice((pageNo - 1) * pageSize, pageNo * pageSize) };
        }}
        rowKey="id"
        defaultPageSize={10}
        columns={[
          {
            title: '生效时间', dataIndex: 'effectiveFrom', width: 300, render: (v: number, r) => (
              <span>
                {formatDateTime(v, 'YYYY-MM-DD HH:mm')}{' '}
                {r.id === cur.id ? <Tag color="green">当前生效</Tag> : v > Date.now() ? <Tag color="orange">待生效</Tag> : null}
                {changed.current.has(r.id) && <Tag color="blue" data-testid="section-changed">本页修改</Tag>}
                {first.current === r.id && <Tag>首次保存</Tag>}
              </span>
            ),
          },
          ...historyColumns,
          { title: '计费方案', dataIndex: 'scheme', width: 220, render: (v: number) => billingSchemeName(v) },
          { title: '修改人', dataIndex: 'createdBy', width: 110, render: (v: string | null) => v ?? '—' },
          { title: '修改时间', dataIndex: 'createdAt', width: 165, render: (v: number) => formatDateTime(v) },
          { title: '备注', dataIndex: 'remark', width: 180, render: (v: string) => v || '—' },
        ]}
      />
      </div>
    </>
  );
}

/** The history cell of a price: "1.2000 元". */
export const yuanText = (unit = '元') => (v: string | undefined) => (v === undefined ? '—' : `${v} ${unit}`);
