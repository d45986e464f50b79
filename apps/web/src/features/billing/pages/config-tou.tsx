import { Alert, Button, Form, Radio, Select, Switch, Tag, TimePicker, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { METHOD_FIELDS, TOU_KINDS, schemeOf, tariffBody, type TouKind, type TouSection } from '@kelvin/contracts';
import { zodRule } from '../../../lib/form';
import { dayjs } from '../../../lib/time';
import { FieldGrid, PriceInput } from '../components/config-fields';
import { TariffSectionPage } from '../components/config-tariff-section';
import { TouChart } from '../components/config-tou-chart';
import { touProblems, touSummary, type TouPeriod } from '../components/config-tou-model';

const tou = tariffBody.shape.tou.shape;
const KIND_OPTIONS = (Object.entries(TOU_KINDS) as [TouKind, string][]).map(([value, label]) => ({ value, label }));
const MAX_PERIODS = 24;

/** 'HH:mm' text in the document, a dayjs in the picker. */
const timeProps = {
  getValueProps: (v?: string) => ({ value: v ? dayjs(`2000-01-01T${v}`) : null }),
  normalize: (d: Dayjs | null) => (d ? d.format('HH:mm') : undefined),
};

/**
 * jfsd (计费时段; projectType2 101/102): time-of-use pricing — the periods of a day (峰 / 平 / 谷, a period may run
 * across midnight), the price of each kind, how holidays are billed, on or off. The periods must cover 24 h without
 * overlapping (checked here while editing and by the server on save); the bar shows the day as edited.
 */
export default function TouPage() {
  return (
    <TariffSectionPage
      title="计费时段"
      code="jfsd"
      keys={['tou']}
      formWidth={900}
      intro="启用后，每个时段内的用量按该时段类型（峰、平、谷）的单价计费；节假日可整天按一种类型计费。"
      historyColumns={[
        { title: '分时计价', key: 'on', width: 90, render: (_, v) => (v.tou.enabled ? <Tag color="green">启用</Tag> : <Tag>未启用</Tag>) },
        { title: '时段', key: 'periods', width: 320, ellipsis: { showTitle: false }, render: (_, v) => <Tooltip title={touSummary(v.tou.periods)}>{touSummary(v.tou.periods)}</Tooltip> },
        { title: '峰 / 平 / 谷（元）', key: 'prices', width: 190, render: (_, v) => `${v.tou.prices.peak} / ${v.tou.prices.flat} / ${v.tou.prices.valley}` },
        { title: '节假日', key: 'holiday', width: 100, render: (_, v) => (v.tou.holidayKind ? `全天按${TOU_KINDS[v.tou.holidayKind]}` : '与平日相同') },
      ]}
    >
      {(cur) => <TouFields unit={(() => { const m = schemeOf(cur.scheme)?.method; return m ? `元/${METHOD_FIELDS[m].unit}` : '元'; })()} />}
    </TariffSectionPage>
  );
}

function TouFields({ unit }: { unit: string }) {
  const form = Form.useFormInstance();
  const draft = (Form.useWatch('tou', form) ?? {}) as Partial<TouSection>;
  const periods = (draft.periods ?? []).filter(Boolean) as Partial<TouPeriod>[];
  const problems = touProblems(periods, !!draft.enabled);
  const p = tou.prices.shape;
  return (
    <>
      <Form.Item name={['tou', 'enabled']} label="分时计价" valuePropName="checked" extra="关闭时按项目参数中的单一单价计费">
        <Switch checkedChildren="启用" unCheckedChildren="关闭" />
      </Form.Item>
      <FieldGrid columns={3}>
        <Form.Item name={['tou', 'prices', 'peak']} label={`峰时单价（${unit}）`} rules={[zodRule(p.peak)]}><PriceInput unit={unit} /></Form.Item>
        <Form.Item name={['tou', 'prices', 'flat']} label={`平时单价（${unit}）`} rules={[zodRule(p.flat)]}><PriceInput unit={unit} /></Form.Item>
        <Form.Item name={['tou', 'prices', 'valley']} label={`谷时单价（${unit}）`} rules={[zodRule(p.valley)]}><PriceInput unit={unit} /></Form.Item>
      </FieldGrid>
      <Form.Item
        name={['tou', 'holidayKind']}
        label="节假日计价"
        extra="按系统设置中的节假日日历"
        getValueProps={(v: TouKind | null) => ({ value: v ?? 'none' })}
        normalize={(v: string) => (v === 'none' ? null : v)}
      >
        <Select style={{ width: 220 }} options={[{ value: 'none', label: '与平日相同' }, ...KIND_OPTIONS.map((o) => ({ value: o.value, label: `全天按${o.label}` }))]} />
      </Form.Item>
      <Form.Item label="时段" required extra="结束时间早于开始时间表示跨零点（如 22:00–06:00）；结束 00:00 即到当天 24:00。">
        <Form.List
          name={['tou', 'periods']}
          rules={[{
            validator: async (_r, list: Partial<TouPeriod>[] | undefined) => {
              const found = touProblems((list ?? []).filter(Boolean), !!form.getFieldValue(['tou', 'enabled']));
              if (found.length) throw new Error(found[0]);
            },
          }]}
        >
          {(fields, { add, remove }, { errors }) => (
            <div data-testid="tou-periods">
              <div style={{ display: 'grid', gridTemplateColumns: '48px 140px 140px 150px 40px', gap: 8, color: 'rgba(0,0,0,0.55)', fontSize: 12, marginBottom: 4 }}>
                <span>序号</span><span>开始</span><span>结束</span><span>类型</span><span />
              </div>
              {fields.map((f, i) => (
                <div key={f.key} data-testid="tou-period" style={{ display: 'grid', gridTemplateColumns: '48px 140px 140px 150px 40px', gap: 8, alignItems: 'start' }}>
                  <Typography.Text style={{ lineHeight: '32px' }}>{i + 1}</Typography.Text>
                  <Form.Item name={[f.name, 'start']} {...timeProps} rules={[{ required: true, message: '请选择开始时间' }]} style={{ marginBottom: 8 }}>
                    <TimePicker format="HH:mm" minuteStep={5} needConfirm={false} allowClear={false} aria-label={`第 ${i + 1} 段开始`} style={{ width: '100%' }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'end']} {...timeProps} rules={[{ required: true, message: '请选择结束时间' }]} style={{ marginBottom: 8 }}>
                    <TimePicker format="HH:mm" minuteStep={5} needConfirm={false} allowClear={false} aria-label={`第 ${i + 1} 段结束`} style={{ width: '100%' }} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'kind']} rules={[{ required: true, message: '请选择类型' }]} style={{ marginBottom: 8 }}>
                    <Radio.Group optionType="button" buttonStyle="solid" options={KIND_OPTIONS} aria-label={`第 ${i + 1} 段类型`} />
                  </Form.Item>
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={`删除第 ${i + 1} 段`} onClick={() => remove(f.name)} />
                </div>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MAX_PERIODS} onClick={() => {
                // the new period starts where the last one ends
                const last = periods.at(-1);
                add({ start: last?.end ?? '00:00', end: undefined, kind: 'flat' });
              }}>
                添加时段
              </Button>
              <Form.ErrorList errors={errors} />
            </div>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item label="全天时段分布">
        <TouChart periods={periods} prices={draft.prices} />
      </Form.Item>
      {problems.length > 0 && (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} data-testid="tou-problems"
          title="时段设置有问题，改正后才能保存"
          description={<ul style={{ margin: 0, paddingLeft: 18 }}>{problems.map((x) => <li key={x}>{x}</li>)}</ul>} />
      )}
    </>
  );
}
