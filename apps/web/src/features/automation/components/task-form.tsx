import { useEffect, useState } from 'react';
import { Alert, Checkbox, Col, DatePicker, Form, Input, InputNumber, Radio, Row, Select, Switch, TimePicker, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MISSED_POLICIES, PERIODIC_EVERY, STRATEGY_OPERATORS, STRATEGY_SOURCES, TASK_KINDS, WEEKDAY_LABELS, describeRule,
  type MissedPolicy, type PeriodicEvery, type StrategyOperator, type StrategySource, type TaskBody, type TaskKind, type TaskRow,
} from '@kelvin/contracts/automation';
import { DEVICE_TYPE_BY_CODE, fieldOf } from '@kelvin/contracts/device-registry';
import type { FieldValue } from '@kelvin/contracts/device';
import { FormModal } from '../../../components/form-modal';
import { useChange } from '../../../lib/mutations';
import { toastError } from '../../../lib/feedback';
import { dayjs } from '../../../lib/time';
import { useDeviceDetail } from '../../devices';
import { automationApi, automationKeys } from '../api';
import { useProgrammableTypes } from './program-form';
import { ruleOf, strategyText } from '../task-model';
import { AreaSelect, DeviceSelect, GroupSelect } from './targets';
import { WritesEditor, defaultWrites, programFields } from './week-program-editor';
import type { Dayjs } from 'dayjs';

/** The form's values (times as dayjs while editing; converted to the API body on save). */
interface TaskValues {
  name: string;
  deviceType?: string;
  deviceIds: number[];
  groupIds: number[];
  areaIds: number[];
  enabled: boolean;
  missedPolicy: MissedPolicy;
  remark?: string | null;
  runAt?: Dayjs | null;
  every?: PeriodicEvery;
  at?: Dayjs | null;
  weekdays?: number[];
  days?: number[];
  cron?: string;
  skipHolidays?: boolean;
  holidayType?: 'holiday' | 'workday';
  source?: StrategySource;
  sensorDeviceIds?: number[];
  fieldCode?: string;
  operator?: StrategyOperator;
  threshold?: number;
  forMinutes?: number;
  cooldownMinutes?: number;
  programId?: number;
  memoryWhen?: 'now' | 'at';
}

const hm = (d: Dayjs | null | undefined) => (d ? d.format('HH:mm') : '');
const atOf = (s: string | null | undefined) => (s ? dayjs(s, 'HH:mm') : null);

/**
 * The dialog of one task of any kind: name, device type and targets, the fields to write, and what starts it —
 * a time (定时), a rule with its Chinese description shown live (周期), holiday days (节假日), a condition with a
 * cool-down (策略), or a week program pushed to memory devices (记忆周期).
 */
export function TaskFormModal({ projectId, kind, row, open, onClose }: {
  projectId: number;
  kind: TaskKind;
  row: TaskRow | null;
  open: boolean;
  onClose(): void;
}) {
  const qc = useQueryClient();
  const [form] = Form.useForm<TaskValues>();
  const [writes, setWrites] = useState<Record<string, FieldValue>>({});
  const types = useProgrammableTypes(projectId);
  const v = Form.useWatch([], form) as TaskValues | undefined;
  const deviceType = v?.deviceType;
  const def = deviceType ? DEVICE_TYPE_BY_CODE.get(deviceType) : undefined;
  const memoryPrograms = useQuery({
    queryKey: [...automationKeys.programs(projectId), 'memory'],
    queryFn: () => automationApi.programs({ projectId, pageNo: 1, pageSize: 200 }),
    enabled: open && kind === 'memory',
  });
  const sensorId = v?.source === 'sensor' ? v.sensorDeviceIds?.[0] ?? null : null;
  const sensor = useDeviceDetail(sensorId);
  const conditionType = v?.source === 'sensor' ? sensor.data?.deviceType : deviceType;
  const conditionFields = (conditionType ? DEVICE_TYPE_BY_CODE.get(conditionType)?.fields ?? [] : []).filter((f) => f.kind === 'number');

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const r = row;
    const first = types.list[0]?.code;
    const type = r?.deviceType ?? first;
    form.setFieldsValue({
      name: r?.name ?? '', deviceType: type ?? undefined, deviceIds: r?.deviceIds ?? [], groupIds: r?.groupIds ?? [], areaIds: r?.areaIds ?? [],
      enabled: r?.enabled ?? true, missedPolicy: r?.missedPolicy ?? 'late', remark: r?.remark ?? '',
      runAt: r?.runAt ? dayjs(r.runAt) : kind === 'once' ? dayjs().add(5, 'minute').second(0) : null,
      every: r?.rule?.every ?? 'weekly',
      at: atOf(r?.rule && 'at' in r.rule ? r.rule.at : r?.at) ?? dayjs('07:30', 'HH:mm'),
      weekdays: r?.rule?.every === 'weekly' ? r.rule.weekdays : [1, 2, 3, 4, 5],
      days: r?.rule?.every === 'monthly' ? r.rule.days : [1],
      cron: r?.rule?.every === 'cron' ? r.rule.cron : '30 7 * * 1-5',
      skipHolidays: r?.skipHolidays ?? false,
      holidayType: r?.holidayType ?? 'holiday',
      source: r?.condition?.source ?? 'device',
      sensorDeviceIds: r?.condition?.sensorDeviceId ? [r.condition.sensorDeviceId] : [],
      fieldCode: r?.condition?.fieldCode ?? (type && fieldOf(type, 'f03') ? 'f03' : undefined),
      operator: r?.condition?.operator ?? 'lt',
      threshold: r?.condition?.threshold ?? 16,
      forMinutes: r?.condition?.forMinutes ?? 20,
      cooldownMinutes: r?.cooldownMinutes ?? 30,
      programId: r?.programId ?? undefined,
      memoryWhen: r?.runAt ? 'at' : 'now',
    });
    const d = type ? DEVICE_TYPE_BY_CODE.get(type) : undefined;
    setWrites(r ? Object.fromEntries(r.writes.map((w) => [w.fieldCode, w.value])) : d ? defaultWrites(d) : {});
    // filled once when the dialog opens (and when the type list arrives for a new task)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, row, types.list.length]);

  const save = useChange(
    (body: TaskBody) => (row ? automationApi.updateTask(row.id, body) : automationApi.createTask(body)),
    { done: '保存成功', refresh: () => qc.invalidateQueries({ queryKey: automationKeys.all }), then: () => onClose() },
  );

  // the form has validated its fields; what spans fields is checked here
  const submit = (f: TaskValues) => {
    const common = {
      projectId, name: f.name.trim(), deviceIds: f.deviceIds ?? [], groupIds: f.groupIds ?? [], areaIds: f.areaIds ?? [],
      enabled: f.enabled, missedPolicy: f.missedPolicy, remark: f.remark?.trim() || null,
    };
    if (!common.deviceIds.length && !common.groupIds.length && !common.areaIds.length) {
      toastError('请选择执行对象：设备、分组或区域');
      return;
    }
    const w = { deviceType: f.deviceType, writes: Object.entries(writes).map(([fieldCode, value]) => ({ fieldCode, value })) };
    if (kind !== 'memory' && !w.writes.length) {
      toastError('请至少设置一个要写入的参数');
      return;
    }
    let body: TaskBody;
    switch (kind) {
      case 'once':
        if (!f.runAt || f.runAt.valueOf() <= Date.now()) {
          toastError('执行时间须晚于现在');
          return;
        }
        body = { ...common, ...w, kind, runAt: f.runAt.second(0).millisecond(0).valueOf() };
        break;
      case 'periodic': {
        const rule = ruleOf(f);
        if (!rule) {
          toastError('周期规则不完整或格式不正确');
          return;
        }
        body = { ...common, ...w, kind, rule, skipHolidays: !!f.skipHolidays };
        break;
      }
      case 'holiday':
        body = { ...common, ...w, kind, at: hm(f.at), holidayType: f.holidayType ?? 'holiday' };
        break;
      case 'strategy':
        body = {
          ...common, ...w, kind, cooldownMinutes: f.cooldownMinutes ?? 30,
          condition: {
            source: f.source ?? 'device', sensorDeviceId: f.source === 'sensor' ? f.sensorDeviceIds?.[0] ?? null : null,
            fieldCode: f.fieldCode ?? '', operator: f.operator ?? 'lt', threshold: f.threshold ?? 0, forMinutes: f.forMinutes ?? 0,
          },
        };
        break;
      default:
        if (f.memoryWhen === 'at' && (!f.runAt || f.runAt.valueOf() <= Date.now())) {
          toastError('下发时间须晚于现在');
          return;
        }
        body = { ...common, kind: 'memory', programId: f.programId!, runAt: f.memoryWhen === 'at' ? f.runAt!.second(0).millisecond(0).valueOf() : null };
    }
    save.mutate(body);
  };

  const rule = kind === 'periodic' && v ? ruleOf(v) : null;
  const memoryList = (memoryPrograms.data?.rows ?? []).filter((p) => p.memory);
  const title = `${row ? '编辑' : '新增'}${TASK_KINDS[kind]}`;

  return (
    <FormModal open={open} title={title} width={820} onClose={onClose} form={form} name={`task-${kind}`} saving={save.isPending} onSave={submit}>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="name" label="任务名称" rules={[{ required: true, whitespace: true, message: '请输入任务名称' }, { max: 40, message: '最多 40 个字符' }]}>
            <Input maxLength={40} placeholder="例如：工作日早上开机" />
          </Form.Item>
        </Col>
        <Col span={8}>
          {kind === 'memory' ? (
            <Form.Item name="programId" label="下发的周程序" rules={[{ required: true, message: '请选择周程序' }]}
              extra={!memoryPrograms.isLoading && !memoryList.length ? '本项目还没有记忆型设备的周程序，请先在「编程设置」中新建' : undefined}>
              <Select loading={memoryPrograms.isLoading} placeholder="选择周程序" options={memoryList.map((p) => ({ value: p.id, label: `${p.name}（${p.typeName}）` }))}
                onChange={(id: number) => form.setFieldValue('deviceType', memoryList.find((p) => p.id === id)?.deviceType)} />
            </Form.Item>
          ) : (
            <Form.Item name="deviceType" label="设备类型" rules={[{ required: true, message: '请选择设备类型' }]}>
              <Select loading={types.loading} options={types.list.map((t) => ({ value: t.code, label: t.name }))}
                onChange={(code: string) => {
                  const d = DEVICE_TYPE_BY_CODE.get(code);
                  setWrites(d ? defaultWrites(d) : {});
                  form.setFieldsValue({ deviceIds: [], fieldCode: fieldOf(code, 'f03') ? 'f03' : undefined });
                }} />
            </Form.Item>
          )}
        </Col>
        <Col span={4}><Form.Item name="enabled" label="启用" valuePropName="checked"><Switch /></Form.Item></Col>
      </Row>
      <Row gutter={16}>
        <Col span={8}><Form.Item name="deviceIds" label="设备" tooltip="执行对象为所选设备、分组和区域内设备的合集"><DeviceSelect projectId={projectId} deviceType={deviceType} /></Form.Item></Col>
        <Col span={8}><Form.Item name="groupIds" label="分组"><GroupSelect projectId={projectId} /></Form.Item></Col>
        <Col span={8}><Form.Item name="areaIds" label="区域"><AreaSelect projectId={projectId} /></Form.Item></Col>
      </Row>

      {kind === 'once' && (
        <Form.Item name="runAt" label="执行时间" rules={[{ required: true, message: '请选择执行时间' }]}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" disabledDate={(d) => d.isBefore(dayjs().startOf('day'))} style={{ width: 220 }} />
        </Form.Item>
      )}

      {kind === 'periodic' && (
        <div data-testid="periodic-rule">
          <Row gutter={16}>
            <Col span={10}>
              <Form.Item name="every" label="周期">
                <Radio.Group optionType="button" options={Object.entries(PERIODIC_EVERY).map(([value, label]) => ({ value, label: value === 'cron' ? 'Cron' : label }))} />
              </Form.Item>
            </Col>
            {v?.every !== 'cron' && (
              <Col span={6}>
                <Form.Item name="at" label="时间" rules={[{ required: true, message: '请选择时间' }]}>
                  <TimePicker format="HH:mm" needConfirm={false} minuteStep={1} allowClear={false} />
                </Form.Item>
              </Col>
            )}
            <Col span={8}><Form.Item name="skipHolidays" label="节假日不执行" valuePropName="checked"><Switch /></Form.Item></Col>
          </Row>
          {v?.every === 'weekly' && (
            <Form.Item name="weekdays" label="星期" rules={[{ required: true, message: '请选择星期' }]}>
              <Checkbox.Group options={Object.entries(WEEKDAY_LABELS).map(([value, label]) => ({ value: Number(value), label }))} />
            </Form.Item>
          )}
          {v?.every === 'monthly' && (
            <Form.Item name="days" label="日期" rules={[{ required: true, message: '请选择日期' }]} extra="没有该日期的月份（如 4 月 31 日）当月不执行">
              <Select mode="multiple" style={{ maxWidth: 480 }} options={Array.from({ length: 31 }, (_, i) => ({ value: i + 1, label: `${i + 1}日` }))} />
            </Form.Item>
          )}
          {v?.every === 'cron' && (
            <Form.Item name="cron" label="Cron 表达式" extra="「分 时 日 月 周」，例如 30 7 * * 1-5 表示每周一至周五 07:30" rules={[{ required: true, message: '请输入 Cron 表达式' }]}>
              <Input style={{ width: 260 }} maxLength={100} />
            </Form.Item>
          )}
          <Alert type={rule ? 'success' : 'warning'} showIcon style={{ marginBottom: 12 }} data-testid="rule-description"
            message={rule ? `执行规则：${describeRule(rule)}${v?.skipHolidays ? '（节假日除外）' : ''}` : '规则还不完整或格式不正确'} />
        </div>
      )}

      {kind === 'holiday' && (
        <Row gutter={16}>
          <Col span={10}>
            <Form.Item name="holidayType" label="执行日期">
              <Radio.Group optionType="button" options={[{ value: 'holiday', label: '节假日' }, { value: 'workday', label: '调休上班日' }]} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="at" label="时间" rules={[{ required: true, message: '请选择时间' }]}>
              <TimePicker format="HH:mm" needConfirm={false} allowClear={false} />
            </Form.Item>
          </Col>
          <Col span={8}><Typography.Paragraph type="secondary" style={{ marginTop: 30, fontSize: 12 }}>日期取自「系统设置 › 节假日管理」</Typography.Paragraph></Col>
        </Row>
      )}

      {kind === 'strategy' && (
        <div data-testid="strategy-condition" style={{ background: '#fafafa', padding: '12px 12px 0', borderRadius: 6, marginBottom: 12 }}>
          <Row gutter={12}>
            <Col span={10}>
              <Form.Item name="source" label="条件来源">
                <Radio.Group optionType="button" options={Object.keys(STRATEGY_SOURCES).map((value) => ({ value, label: value === 'device' ? '目标设备自身' : '指定传感器' }))}
                  onChange={() => form.setFieldValue('fieldCode', undefined)} />
              </Form.Item>
            </Col>
            {v?.source === 'sensor' && (
              <Col span={14}>
                <Form.Item name="sensorDeviceIds" label="传感器设备（如室外温度）" rules={[{ required: true, message: '请选择传感器设备' }]}>
                  <DeviceSelect projectId={projectId} placeholder="搜索设备" />
                </Form.Item>
              </Col>
            )}
          </Row>
          <Row gutter={12}>
            <Col span={7}>
              <Form.Item name="fieldCode" label="读数" rules={[{ required: true, message: '请选择读数' }]}>
                <Select placeholder={conditionType ? '选择读数' : '请先选择设备'} options={conditionFields.map((fd) => ({ value: fd.code, label: `${fd.label}${fd.unit ? `（${fd.unit}）` : ''}` }))} />
              </Form.Item>
            </Col>
            <Col span={5}>
              <Form.Item name="operator" label="比较">
                <Select options={Object.entries(STRATEGY_OPERATORS).map(([value, label]) => ({ value, label }))} />
              </Form.Item>
            </Col>
            <Col span={4}><Form.Item name="threshold" label="阈值" rules={[{ required: true, message: '请输入阈值' }]}><InputNumber style={{ width: '100%' }} /></Form.Item></Col>
            <Col span={4}><Form.Item name="forMinutes" label="持续（分钟）"><InputNumber min={0} max={1440} style={{ width: '100%' }} /></Form.Item></Col>
            <Col span={4}>
              <Form.Item name="cooldownMinutes" label="冷却（分钟）" tooltip="触发后这段时间内不再触发，避免反复开关">
                <InputNumber min={1} max={1440} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Typography.Paragraph data-testid="strategy-description" style={{ marginBottom: 12 }}>
            {strategyText(conditionType, v?.fieldCode, v?.operator, v?.threshold, v?.forMinutes, v?.cooldownMinutes, v?.source) || '请完成条件'}
          </Typography.Paragraph>
        </div>
      )}

      {kind === 'memory' && (
        <Row gutter={16}>
          <Col span={10}>
            <Form.Item name="memoryWhen" label="下发时间">
              <Radio.Group optionType="button" options={[{ value: 'now', label: '保存后立即下发' }, { value: 'at', label: '指定时间' }]} />
            </Form.Item>
          </Col>
          {v?.memoryWhen === 'at' && (
            <Col span={10}>
              <Form.Item name="runAt" label="时间" rules={[{ required: true, message: '请选择时间' }]}>
                <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: 220 }} />
              </Form.Item>
            </Col>
          )}
        </Row>
      )}

      {kind !== 'memory' && (
        <Form.Item label="写入参数" required>
          {def ? <WritesEditor def={def} fields={programFields(def)} value={writes} onChange={setWrites} /> : <Typography.Text type="secondary">请先选择设备类型</Typography.Text>}
        </Form.Item>
      )}
      <Row gutter={16}>
        {kind !== 'strategy' && (
          <Col span={12}>
            <Form.Item name="missedPolicy" label="服务停机时错过的执行">
              <Radio.Group optionType="button" options={Object.entries(MISSED_POLICIES).map(([value, label]) => ({ value, label }))} />
            </Form.Item>
          </Col>
        )}
        <Col span={12}><Form.Item name="remark" label="备注" rules={[{ max: 200, message: '最多 200 个字符' }]}><Input maxLength={200} placeholder="可选" /></Form.Item></Col>
      </Row>
    </FormModal>
  );
}
