import { useEffect, useState } from 'react';
import { Alert, Button, Col, Form, Input, Radio, Row, Select, Switch, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  HOLIDAY_RULES, MISSED_POLICIES, type HolidayRule, type MissedPolicy, type ProgramSchemeRow, type WeekProgramRow,
} from '@kelvin/contracts/automation';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts/device-registry';
import { useChange } from '../../../lib/mutations';
import { toastError } from '../../../lib/feedback';
import { AppModal, PreventClickButton } from '../../../lib/ui';
import { useDeviceTypes } from '../../devices';
import { automationApi, automationKeys } from '../api';
import { emptyWeek, slotsOf, validateWeek, weekOf, type SlotDraft, type WeekDraft } from '../week-model';
import { AreaSelect, DeviceSelect, GroupSelect } from './targets';
import { WeekProgramEditor, defaultWrites, programFields } from './week-program-editor';

interface ProgramValues {
  name: string;
  deviceType: string;
  holidayRule: HolidayRule;
  deviceIds: number[];
  groupIds: number[];
  areaIds: number[];
  missedPolicy: MissedPolicy;
  enabled: boolean;
  remark?: string | null;
}

/** What the dialog edits: a program (new, or an existing one), or a scheme; `from` pre-fills a new program from a scheme. */
export type ProgramTarget =
  | { kind: 'program'; row: WeekProgramRow | null; from?: ProgramSchemeRow }
  | { kind: 'scheme'; row: ProgramSchemeRow | null };

/** Device types that can be programmed: those of the project with writable fields (thermostats only when asked). */
export function useProgrammableTypes(projectId: number | null, thermostatsOnly = false) {
  const types = useDeviceTypes(projectId);
  const list = (types.data ?? []).filter((t) => {
    const def = DEVICE_TYPE_BY_CODE.get(t.code);
    if (!def || !programFields(def).length || def.category === 'gateway' || def.category === 'manager') return false;
    return !thermostatsOnly || def.category === 'thermostat' || def.category === 'billingThermostat';
  });
  return { list, loading: types.isLoading };
}

/** A starter week: 07:00 on at 20 °C (or the type's first field), 22:00 off — Monday to Sunday. */
function starterWeek(deviceType: string): WeekDraft {
  const def = DEVICE_TYPE_BY_CODE.get(deviceType);
  if (!def) return emptyWeek();
  const on = defaultWrites(def);
  const canOff = programFields(def).some((f) => f.code === 'f00');
  const morning: SlotDraft = { time: '07:00', writes: 'f04' in on ? { ...on, f04: 20 } : on };
  return Array.from({ length: 7 }, () => (canOff ? [morning, { time: '22:00', writes: { f00: 0 } }] : [morning]));
}

/**
 * The dialog of a week program (编程设置, 温控器编程) or a program scheme (编程方案): name, device type, for programs
 * the holiday rule and targets (devices / groups / areas), and the week editor.
 */
export function ProgramFormModal({ projectId, target, thermostatsOnly, onClose }: {
  projectId: number;
  target: ProgramTarget | null;
  thermostatsOnly?: boolean;
  onClose(): void;
}) {
  const qc = useQueryClient();
  const [form] = Form.useForm<ProgramValues>();
  const [week, setWeek] = useState<WeekDraft>(emptyWeek());
  const types = useProgrammableTypes(projectId, thermostatsOnly);
  const deviceType = Form.useWatch('deviceType', form);
  const def = deviceType ? DEVICE_TYPE_BY_CODE.get(deviceType) : undefined;
  const isProgram = target?.kind === 'program';
  const source = target?.kind === 'program' ? target.row ?? target.from ?? null : target?.row ?? null;

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    const first = types.list[0]?.code;
    if (target.kind === 'program') {
      const r = target.row;
      const f = target.from;
      form.setFieldsValue(r ? {
        name: r.name, deviceType: r.deviceType, holidayRule: r.holidayRule, deviceIds: r.deviceIds, groupIds: r.groupIds, areaIds: r.areaIds,
        missedPolicy: r.missedPolicy, enabled: r.enabled,
      } : {
        name: f ? f.name : '', deviceType: f?.deviceType ?? first, holidayRule: 'weekend', deviceIds: [], groupIds: [], areaIds: [],
        missedPolicy: 'skip-record', enabled: true,
      });
      setWeek(r ? weekOf(r.slots) : f ? weekOf(f.slots) : first ? starterWeek(first) : emptyWeek());
    } else {
      const r = target.row;
      form.setFieldsValue(r ? { name: r.name, deviceType: r.deviceType, remark: r.remark } : { name: '', deviceType: first });
      setWeek(r ? weekOf(r.slots) : first ? starterWeek(first) : emptyWeek());
    }
    // the dialog is filled once when it opens (and when the type list arrives for a new one)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target, types.list.length]);

  const save = useChange(
    async (v: ProgramValues) => {
      const slots = slotsOf(week);
      if (target?.kind === 'scheme') {
        const body = { projectId, name: v.name, deviceType: v.deviceType, slots, remark: v.remark?.trim() || null };
        return target.row ? automationApi.updateScheme(target.row.id, body) : automationApi.createScheme(body);
      }
      const body = {
        projectId, name: v.name, deviceType: v.deviceType, slots, holidayRule: v.holidayRule, deviceIds: v.deviceIds ?? [], groupIds: v.groupIds ?? [],
        areaIds: v.areaIds ?? [], missedPolicy: v.missedPolicy, enabled: v.enabled,
        schemeId: target?.kind === 'program' ? target.row?.schemeId ?? target.from?.id ?? null : null,
      };
      return target?.kind === 'program' && target.row ? automationApi.updateProgram(target.row.id, body) : automationApi.createProgram(body);
    },
    { done: '保存成功', refresh: () => qc.invalidateQueries({ queryKey: automationKeys.all }), then: () => onClose() },
  );

  const submit = () => form.validateFields().then((v) => {
    if (!def) return;
    const problems = validateWeek(def, week);
    if (problems.length) {
      toastError(problems[0]!.message);
      return;
    }
    if (!slotsOf(week).length) {
      toastError('请至少添加一个时段');
      return;
    }
    if (isProgram && !(v.deviceIds?.length || v.groupIds?.length || v.areaIds?.length)) {
      toastError('请选择执行对象：设备、分组或区域');
      return;
    }
    save.mutate(v);
  }, () => undefined);

  const title = target?.kind === 'scheme' ? (target.row ? '编辑编程方案' : '新增编程方案')
    : target?.row ? '编辑周程序' : target?.kind === 'program' && target.from ? `由方案「${target.from.name}」新建周程序` : '新增周程序';

  return (
    <AppModal open={!!target} title={title} width={1000} onCancel={onClose}
      footer={[
        <Button key="c" onClick={onClose}>取消</Button>,
        <PreventClickButton key="ok" type="primary" loading={save.isPending} onClick={submit}>保存</PreventClickButton>,
      ]}>
      <Form form={form} name={isProgram ? 'week-program' : 'program-scheme'} layout="vertical" requiredMark>
        <Row gutter={16}>
          <Col span={10}>
            <Form.Item name="name" label={isProgram ? '程序名称' : '方案名称'} rules={[{ required: true, whitespace: true, message: '请输入名称' }, { max: 40, message: '最多 40 个字符' }]}>
              <Input maxLength={40} placeholder={isProgram ? '例如：3号楼办公室工作日程序' : '例如：办公室标准作息'} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="deviceType" label="设备类型" rules={[{ required: true, message: '请选择设备类型' }]}>
              <Select loading={types.loading} disabled={!!source && !!target?.row} options={types.list.map((t) => ({ value: t.code, label: t.name }))}
                notFoundContent="本项目没有可编程的设备类型"
                onChange={(code: string) => {
                  // fields differ by type: a fresh starter week, and the devices picked for the old type go
                  setWeek(starterWeek(code));
                  form.setFieldValue('deviceIds', []);
                }} />
            </Form.Item>
          </Col>
          {isProgram && (
            <Col span={6}>
              <Form.Item name="enabled" label="启用" valuePropName="checked"><Switch /></Form.Item>
            </Col>
          )}
        </Row>
        {isProgram && (
          <>
            <Row gutter={16}>
              <Col span={8}>
                <Form.Item name="deviceIds" label="设备" tooltip="执行对象为所选设备、分组和区域内设备的合集">
                  <DeviceSelect projectId={projectId} deviceType={deviceType} />
                </Form.Item>
              </Col>
              <Col span={8}><Form.Item name="groupIds" label="分组"><GroupSelect projectId={projectId} /></Form.Item></Col>
              <Col span={8}><Form.Item name="areaIds" label="区域"><AreaSelect projectId={projectId} /></Form.Item></Col>
            </Row>
            <Row gutter={16}>
              <Col span={14}>
                <Form.Item name="holidayRule" label="节假日" tooltip="节假日以「节假日管理」为准；调休上班日按工作日执行">
                  <Radio.Group optionType="button" options={Object.entries(HOLIDAY_RULES).map(([value, label]) => ({ value, label }))} />
                </Form.Item>
              </Col>
              <Col span={10}>
                <Form.Item name="missedPolicy" label="服务停机时错过的时段">
                  <Radio.Group optionType="button" options={Object.entries(MISSED_POLICIES).map(([value, label]) => ({ value, label }))} />
                </Form.Item>
              </Col>
            </Row>
            {def?.programField && (
              <Alert type="info" showIcon style={{ marginBottom: 12 }}
                message={`${def.name}在设备内存中保存周程序：保存后程序整体下发到设备，由设备按时段执行，并回报设备中的程序。`} />
            )}
          </>
        )}
        {!isProgram && (
          <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '最多 200 个字符' }]}>
            <Input maxLength={200} placeholder="可选" />
          </Form.Item>
        )}
      </Form>
      {def ? <WeekProgramEditor def={def} value={week} onChange={setWeek} />
        : <Typography.Text type="secondary">请先选择设备类型</Typography.Text>}
    </AppModal>
  );
}
