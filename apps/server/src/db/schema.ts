import type { Generated } from 'kysely';

/** Booleans are stored as 0/1 and times as epoch milliseconds on both dialects. */
type Flag = number;
type Millis = number;

export interface TenantTable {
  id: Generated<number>;
  code: string;
  name: string;
  contact: string | null;
  phone: string | null;
  brand: string | null;
  filing_no: string | null;
  enabled: Flag;
  created_at: Millis;
  /** data URL (003-admin) */
  logo: string | null;
}

export interface AppUserTable {
  id: Generated<number>;
  tenant_id: number;
  username: string;
  password_hash: string;
  name: string;
  phone: string | null;
  description: string | null;
  enabled: Flag;
  /** Sees every project of the tenant (tenant administrators). */
  all_projects: Flag;
  /** Platform administrator (tenant 0): every tenant, every code. */
  is_platform: Flag;
  created_at: Millis;
}

export interface RoleTable {
  id: Generated<number>;
  tenant_id: number;
  parent_id: number | null;
  code: string;
  name: string;
  group_type: string;
  description: string | null;
  created_at: Millis;
}

export interface RoleGrantTable { role_id: number; code: string }
export interface UserRoleTable { user_id: number; role_id: number; /** group leader (003-admin) */ leader: Generated<Flag> }
export interface UserProjectTable { user_id: number; project_id: number }

export interface MenuTable {
  id: Generated<number>;
  code: string;
  title: string;
  icon: string | null;
  parent_code: string | null;
  type: string;
  path: string;
  href: string | null;
  order_no: number;
  hidden: Flag;
  builtin: Flag;
}

export interface MenuElementTable {
  id: Generated<number>;
  menu_code: string;
  code: string;
  kind: string;
  name: string;
  uri: string | null;
  method: string | null;
}

export interface SessionTable {
  id: string;
  user_id: number;
  created_at: Millis;
  expires_at: Millis;
  revoked_at: Millis | null;
}

export interface LoginAttemptTable {
  id: Generated<number>;
  scope: string;
  key: string;
  at: Millis;
}

export interface GateLogTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number | null;
  username: string | null;
  menu_code: string | null;
  operation: string;
  method: string;
  uri: string;
  host: string | null;
  status: number;
  at: Millis;
}

export interface AreaTable {
  id: Generated<number>;
  tenant_id: number;
  parent_id: number | null;
  /** region | project | building | floor | room */
  level: string;
  name: string;
  code: string | null;
  sort_no: number;
  /** Floor area in m², for billing by area. */
  floor_area: number | null;
  project_type: string | null;
  project_type2: number | null;
  billing_scheme: number | null;
  address: string | null;
  lng: number | null;
  lat: number | null;
  alias: string | null;
  /** project contact details (004-projects) */
  contact: string | null;
  phone: string | null;
  remark: string | null;
  created_at: Millis;
}

export interface SecretTable { key: string; value: string }

export interface ProjectFileTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  name: string;
  stored_name: string;
  size: number;
  mime: string;
  uploaded_by: string | null;
  created_at: Millis;
}

/** Tables of 003-admin: group types, SMS, system parameters, holidays. */
export interface GroupTypeTable {
  id: Generated<number>;
  tenant_id: number;
  code: string;
  name: string;
  description: string | null;
  builtin: Flag;
  created_at: Millis;
}

export interface SmsTemplateTable {
  id: Generated<number>;
  tenant_id: number;
  kind: string;
  name: string;
  content: string;
  external_code: string | null;
  enabled: Flag;
  updated_at: Millis;
}

export interface SmsSettingTable {
  tenant_id: number;
  sign_name: string;
  enabled: Flag;
  low_balance: Flag;
  alarm: Flag;
  cut_off: Flag;
  /** comma-separated mobile numbers */
  alarm_phones: string;
  daily_limit: number;
  updated_at: Millis;
}

export interface SmsRecordTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number | null;
  kind: string;
  phone: string;
  sign_name: string | null;
  content: string;
  provider: string;
  status: string;
  error: string | null;
  provider_msg_id: string | null;
  created_at: Millis;
  sent_at: Millis | null;
}

export interface SystemParamTable { tenant_id: number; key: string; value: string; updated_at: Millis }

export interface HolidayTable {
  id: Generated<number>;
  tenant_id: number;
  /** 0 = every project of the tenant */
  project_id: number;
  date: string;
  type: string;
  name: string | null;
  created_at: Millis;
}

/** Tables of 002-devices. */
export interface DeviceTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  area_id: number | null;
  gateway_id: number | null;
  device_type: string;
  device_code: string;
  device_name: string;
  secret_hash: string;
  enabled: Flag;
  created_at: Millis;
  updated_at: Millis;
  last_report_at: Millis | null;
  online_until: Millis | null;
  last_connect_at: Millis | null;
  command_pending_at: Millis | null;
}

export interface DeviceStateTable { device_id: number; field_code: string; num: number | null; txt: string | null; ts: Millis }
export interface DeviceHistoryTable { device_id: number; field_code: string; ts: Millis; num: number | null; txt: string | null }

/**
 * Hourly (bucket = start of the UTC hour) and daily (bucket = start of the Asia/Shanghai day) roll-ups of numeric
 * readings (013-rollups); delta = sum of the positive steps between consecutive readings inside the bucket.
 */
export interface DeviceRollupTable {
  device_id: number;
  field_code: string;
  bucket: Millis;
  n: number;
  sum: number;
  min: number;
  max: number;
  first_ts: Millis;
  first_num: number;
  last_ts: Millis;
  last_num: number;
  delta: number;
}

export interface DeviceCommandTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  device_id: number;
  field_code: string | null;
  value: string | null;
  action: string | null;
  status: string;
  error: string | null;
  user_id: number | null;
  username: string | null;
  created_at: Millis;
  sent_at: Millis | null;
  finished_at: Millis | null;
  expires_at: Millis;
}

export interface DeviceOperationLogTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  device_id: number;
  device_code: string;
  device_name: string;
  device_type: string;
  command_id: number | null;
  user_id: number | null;
  username: string | null;
  operation: string;
  detail: string;
  result: string;
  at: Millis;
}

export interface IngestCounterTable { name: string; value: number; updated_at: Millis }
export interface IngestRejectTable {
  id: Generated<number>;
  tenant_id: number | null;
  device_code: string | null;
  topic: string;
  reason: string;
  detail: string;
  at: Millis;
}

/** Device management of 004-projects. */
export interface DeviceGroupTable { id: Generated<number>; tenant_id: number; project_id: number; name: string; remark: string | null; created_at: Millis }
export interface DeviceGroupMemberTable { group_id: number; device_id: number }
export interface DeviceBindRecordTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  device_id: number | null;
  device_type: string;
  /** replace | move | spare | install */
  action: string;
  old_device_code: string | null;
  new_device_code: string | null;
  from_area_id: number | null;
  to_area_id: number | null;
  area_path: string | null;
  detail: string;
  user_id: number | null;
  username: string | null;
  at: Millis;
}
export interface DeviceStockTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  device_type: string;
  device_code: string;
  device_name: string;
  remark: string | null;
  stocked_at: Millis;
}
export interface DeviceCardTable {
  id: Generated<number>;
  tenant_id: number;
  device_code: string;
  iccid: string;
  carrier: string;
  activated_at: Millis | null;
  package_end: Millis | null;
  data_limit_mb: number | null;
  data_used_mb: number | null;
  updated_at: Millis;
}

/** Tables of 005-device-management: address change requests, MQTT settings, factory bench runs. */
export interface DeviceAddressChangeTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  device_id: number | null;
  device_code: string;
  device_name: string;
  device_type: string;
  host: string;
  port: number;
  status: string;
  remark: string | null;
  requested_by: string | null;
  requested_at: Millis;
  closed_by: string | null;
  closed_at: Millis | null;
}
export interface ProjectMqttSettingTable { project_id: number; tenant_id: number; host: string; port: number; tls: Flag; updated_by: string | null; updated_at: Millis }
export interface FactoryTestRunTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  device_id: number;
  device_code: string;
  device_name: string;
  device_type: string;
  bench: string;
  status: string;
  step_count: number;
  passed: number;
  failed: number;
  step_timeout_s: number;
  user_id: number | null;
  username: string | null;
  started_at: Millis;
  finished_at: Millis | null;
  heartbeat_at: Millis;
}
export interface FactoryTestStepTable {
  run_id: number;
  seq: number;
  kind: string;
  label: string;
  field_code: string | null;
  value: string | null;
  status: string;
  message: string | null;
  command_id: number | null;
  started_at: Millis | null;
  finished_at: Millis | null;
}

/** Tables of 007-monitoring. */
export interface MonitorRuleTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  name: string;
  device_type: string;
  field_code: string;
  operator: string;
  threshold: number;
  /** 009: the upper end of an `outside` rule's range */
  threshold_high: number | null;
  for_seconds: number;
  /** 009: breaching reports in a row before it raises */
  for_reports: Generated<number>;
  severity: string;
  notify_sms: Flag;
  enabled: Flag;
  active_from: string | null;
  active_to: string | null;
  updated_by: string | null;
  created_at: Millis;
  updated_at: Millis;
}
export interface MonitorMessageTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  rule_id: number;
  device_id: number;
  device_code: string;
  device_name: string;
  device_type: string;
  rule_name: string;
  field_code: string;
  description: string;
  value: string;
  severity: string;
  status: string;
  read: Flag;
  read_by: string | null;
  read_at: Millis | null;
  comment: string | null;
  created_at: Millis;
  cleared_at: Millis | null;
}

/** Table of 009-exceptions: implausible readings. */
export interface ExceptionDataTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  device_id: number;
  device_code: string;
  device_name: string;
  device_type: string;
  field_code: string;
  kind: string;
  value: string;
  previous: string | null;
  description: string;
  reading_at: Millis;
  handled: Flag;
  handled_by: string | null;
  handled_at: Millis | null;
  note: string | null;
  created_at: Millis;
}
/** 010-accounts: the people billed and the one ledger. */
export interface AccountGroupTable { id: Generated<number>; tenant_id: number; project_id: number; name: string; manager_account_id: number | null; remark: string | null; created_at: Millis }
export interface AccountTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  kind: string;
  name: string;
  phone: string;
  id_number: string | null;
  move_in_date: string | null;
  /** active | closed */
  status: string;
  balance_fen: number;
  deposit_fen: number;
  group_id: number | null;
  remark: string | null;
  created_at: Millis;
  closed_at: Millis | null;
}
export interface AccountRoomTable { id: Generated<number>; tenant_id: number; account_id: number; room_id: number; active: Flag; created_at: Millis; released_at: Millis | null }
export interface AccountDeviceTable { id: Generated<number>; tenant_id: number; account_id: number; device_id: number }
export interface LedgerEntryTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  account_id: number;
  /** balance | deposit */
  book: string;
  kind: string;
  amount_fen: number;
  balance_after_fen: number;
  method: string | null;
  reason: string | null;
  cause_type: string | null;
  cause_id: string | null;
  actor_id: number | null;
  actor_name: string | null;
  idem_key: string | null;
  created_at: Millis;
}
/** The money roll-up (015): per account, CST day (its start, ms), kind and method ('' for none) — count and signed sum. */
export interface LedgerDayTable {
  id: Generated<number>; tenant_id: number; project_id: number; account_id: number; day: Millis; book: string; kind: string; method: string; count: number; sum_fen: number;
}
export interface IdempotencyKeyTable { id: Generated<number>; tenant_id: number; key: string; request_hash: string; result: string; created_at: Millis }
export interface AccountRefundTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  account_id: number;
  amount_fen: number;
  reason: string;
  status: string;
  entry_id: number | null;
  requested_by: number | null;
  requested_name: string | null;
  decided_by: number | null;
  decided_name: string | null;
  decision_comment: string | null;
  created_at: Millis;
  decided_at: Millis | null;
}
export interface MoneySettingTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  topup_max_fen: number | null;
  balance_max_fen: number | null;
  refund_approval_fen: number;
  warning1_fen: number;
  warning2_fen: number;
  overdraft_fen: number;
  updated_at: Millis;
}
export interface BalanceEventTable { id: Generated<number>; tenant_id: number; project_id: number; account_id: number; kind: string; balance_fen: number; entry_id: number; created_at: Millis }
export interface AccountSettlementTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  account_id: number;
  balance_fen: number;
  deposit_fen: number;
  deducted_fen: number;
  unbilled_fen: number;
  net_fen: number;
  reason: string;
  /** JSON: [{ deviceId, fieldCode, value, ts }] */
  readings: string;
  actor_name: string | null;
  created_at: Millis;
}
export interface PaymentAccountTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  provider: string;
  mch_id: string;
  app_id: string;
  api_key_enc: string;
  api_key_tail: string;
  private_key_enc: string | null;
  cert_serial_no: string | null;
  platform_public_key: string | null;
  notify_url: string | null;
  updated_at: Millis;
}
export interface PaymentOrderTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  account_id: number;
  order_no: string;
  provider: string;
  amount_fen: number;
  status: string;
  qr_payload: string | null;
  provider_txn_id: string | null;
  entry_id: number | null;
  created_by: string | null;
  created_at: Millis;
  paid_at: Millis | null;
  closed_at: Millis | null;
}
/** Tables of 008-automation (JSON text columns noted). */
export interface AutomationProgramTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  name: string;
  device_type: string;
  /** JSON ProgramSlot[] */
  slots: string;
  holiday_rule: string;
  /** JSON number[] */
  device_ids: string;
  group_ids: string;
  area_ids: string;
  scheme_id: number | null;
  missed_policy: string;
  enabled: Flag;
  cursor_at: Millis;
  updated_by: string | null;
  created_at: Millis;
  updated_at: Millis;
}
export interface AutomationSchemeTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  name: string;
  device_type: string;
  slots: string;
  remark: string | null;
  updated_by: string | null;
  created_at: Millis;
  updated_at: Millis;
}
export interface AutomationTaskTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  name: string;
  kind: string;
  device_type: string | null;
  device_ids: string;
  group_ids: string;
  area_ids: string;
  /** JSON FieldWrite[] */
  writes: string;
  run_at: Millis | null;
  /** JSON PeriodicRule */
  rule: string | null;
  skip_holidays: Flag;
  at: string | null;
  holiday_type: string | null;
  /** JSON StrategyCondition */
  condition: string | null;
  cooldown_minutes: number | null;
  program_id: number | null;
  missed_policy: string;
  enabled: Flag;
  remark: string | null;
  cursor_at: Millis;
  updated_by: string | null;
  created_at: Millis;
  updated_at: Millis;
}
export interface AutomationRunTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  task_id: number | null;
  program_id: number | null;
  source: string;
  scheduled_at: Millis | null;
  trigger: string;
  status: string;
  retry_of: number | null;
  issuing_since: Millis | null;
  started_at: Millis | null;
  finished_at: Millis | null;
  created_at: Millis;
}
export interface AutomationRunResultTable {
  id: Generated<number>;
  run_id: number;
  device_id: number;
  device_code: string;
  device_name: string;
  field_code: string | null;
  value: string | null;
  command_id: number | null;
  status: string;
  error: string | null;
  updated_at: Millis;
}
export interface AutomationCooldownTable {
  task_id: number;
  device_id: number;
  fired_at: Millis;
}
export interface AutomationOvertimeTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  program_id: number;
  area_id: number;
  account_name: string | null;
  month: string;
  approved_minutes: number;
  updated_by: string | null;
  created_at: Millis;
  updated_at: Millis;
}

// ── billing (migration 011)
export interface BillingTariffTable { id: Generated<number>; tenant_id: number; project_id: number; scheme: number; doc: string; effective_from: Millis; remark: string | null; created_by: string | null; created_at: Millis }
export interface BillingDeviceParamTable { id: Generated<number>; tenant_id: number; project_id: number; device_id: number; charge_rate: string; rated_power: string; base_fee_fen: number; effective_from: Millis; created_by: string | null; created_at: Millis }
export interface BillingShareTeamTable { id: Generated<number>; tenant_id: number; project_id: number; name: string; remark: string | null; updated_by: string | null; updated_at: Millis; created_at: Millis }
export interface BillingShareMemberTable { id: Generated<number>; tenant_id: number; team_id: number; account_id: number }
export interface BillingDeviceRelationTable { id: Generated<number>; tenant_id: number; team_id: number; device_id: number; role: string }
export interface BillingProjectPlanTable {
  id: Generated<number>; tenant_id: number; project_id: number; name: string; metering_method_type: string; price: string; effective_from: Millis;
  remark: string | null; updated_by: string | null; updated_at: Millis; created_at: Millis;
}
export interface BillingDevicePlanTable { id: Generated<number>; tenant_id: number; plan_id: number; device_id: number; effective_from: Millis; created_at: Millis }
export interface BillingRunTable {
  id: Generated<number>; tenant_id: number; project_id: number; scheme: number; period_from: Millis; period_until: Millis;
  /** running | done */
  state: string; accounts: number; lines: number; total_fen: number;
  /** JSON RunGap[] */
  gaps: string; trigger: string; started_at: Millis; finished_at: Millis | null;
}
export interface BillingLineTable {
  id: Generated<number>; tenant_id: number; project_id: number; run_id: number; account_id: number; seq: number; device_id: number | null; method: string; label: string;
  quantity: number; unit: string; unit_price: string; amount_fen: number; period_from: Millis; period_until: Millis; entry_id: number | null; bill_id: number | null;
  /** cost-share lines: ShareBasis as JSON (012) */
  basis: string | null;
}
export interface BillingReadingTable {
  id: Generated<number>; run_id: number; device_id: number; field_code: string; start_ts: Millis | null; start_value: number | null; end_ts: Millis | null; end_value: number | null; use: number;
}
export interface BillingBillTable {
  id: Generated<number>; tenant_id: number; project_id: number; account_id: number; period: string; period_from: Millis; period_until: Millis; amount_fen: number; lines: number;
  /** issued | paid */
  status: string; issued_at: Millis; due_at: Millis; paid_at: Millis | null; pay_method: string | null; paid_by: string | null; entry_id: number | null;
}
export interface BillingSupplyTable {
  id: Generated<number>; tenant_id: number; project_id: number; account_id: number; device_id: number; balance_event_id: number; action: string; status: string; attempts: number;
  command_id: number | null; last_error: string | null; next_try_at: Millis | null; created_at: Millis; updated_at: Millis;
}
export interface BillingEventDoneTable { balance_event_id: number; handled_at: Millis }

/** Tables of 014-repairs: repair work orders, their photos and timeline. */
export interface RepairRecordTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  device_id: number | null;
  device_name: string | null;
  device_code: string | null;
  location: string | null;
  fault: string;
  reporter: string;
  phone: string | null;
  priority: string;
  status: string;
  assignee_id: number | null;
  assignee_name: string | null;
  result: string | null;
  created_by: string | null;
  created_at: Millis;
  updated_at: Millis;
  finished_at: Millis | null;
}
export interface DepartmentTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  parent_id: number | null;
  name: string;
  headcount: number | null;
  area_cm2: number | null;
  budget_kwh: number | null;
  sort_no: number;
  remark: string | null;
  created_at: Millis;
  updated_at: Millis;
}
export interface DepartmentAssignmentTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  department_id: number;
  kind: string;
  device_id: number | null;
  area_id: number | null;
  valid_from: Millis;
  valid_to: Millis | null;
  created_by: string | null;
  created_at: Millis;
}
export interface RepairPhotoTable {
  id: Generated<number>;
  tenant_id: number;
  repair_id: number;
  name: string;
  stored_name: string;
  size: number;
  mime: string;
  uploaded_by: string | null;
  created_at: Millis;
}
export interface RepairEventTable {
  id: Generated<number>;
  tenant_id: number;
  repair_id: number;
  action: string;
  from_status: string | null;
  to_status: string | null;
  note: string | null;
  actor_id: number | null;
  actor_name: string | null;
  at: Millis;
}
/** The secret (its hash) an external broker's account of a device was last given. */
export interface BrokerClientTable {
  device_code: string;
  secret_hash: string;
  synced_at: Millis;
}

/** Who does the periodic broker work for every process, until when. */
export interface BrokerLeaseTable {
  name: string;
  holder: string;
  until: Millis;
}

export interface OpsInstanceTable {
  id: string;
  host: string;
  pid: number;
  version: string;
  node: string;
  /** comma separated InstanceRole */
  roles: string;
  started_at: Millis;
  heartbeat_at: Millis;
  stopped_at: Millis | null;
  load1: number;
  rss_mb: number;
  heap_mb: number;
  devices_connected: number | null;
  loop_p99_ms: number | null;
  requests_per_min: number;
}
export interface OpsTraceTable {
  id: Generated<number>;
  trace_id: string;
  instance_id: string;
  at: Millis;
  duration_ms: number;
  method: string;
  route: string;
  path: string;
  status: number;
  user_id: number | null;
  username: string | null;
  tenant_id: number | null;
  kept: string;
  span_count: number;
  dropped_spans: number;
  /** TraceSpan[] as JSON */
  spans: string;
}

/** Table of 016-bigscreen: public share links of a project's big screen. */
export interface DataviewShareTable {
  id: Generated<number>;
  tenant_id: number;
  project_id: number;
  token_hash: string;
  token_hint: string;
  note: string | null;
  created_by: number | null;
  created_by_name: string;
  created_at: Millis;
  expires_at: Millis;
  revoked_at: Millis | null;
  revoked_by_name: string | null;
}

/** Tables of 019-registration: operator companies' applications, their SMS codes, the dictionary's display names. */
export interface RegistrationApplicationTable {
  id: Generated<number>;
  company: string;
  contact: string;
  phone: string;
  notes: string | null;
  status: string;
  ip: string | null;
  reviewer_id: number | null;
  reviewer_name: string | null;
  reviewed_at: Millis | null;
  reason: string | null;
  tenant_id: number | null;
  tenant_code: string | null;
  username: string | null;
  created_at: Millis;
  updated_at: Millis;
}
export interface RegistrationCodeTable {
  id: Generated<number>;
  phone: string;
  ip: string;
  code_hash: string;
  tries: number;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
}
export interface DictOverrideTable {
  id: Generated<number>;
  tenant_id: number;
  dict_code: string;
  item_value: string;
  label: string;
  updated_by: string | null;
  updated_at: Millis;
}

export interface Database {
  tenant: TenantTable;
  app_user: AppUserTable;
  role: RoleTable;
  role_grant: RoleGrantTable;
  user_role: UserRoleTable;
  user_project: UserProjectTable;
  menu: MenuTable;
  menu_element: MenuElementTable;
  session: SessionTable;
  login_attempt: LoginAttemptTable;
  gate_log: GateLogTable;
  area: AreaTable;
  secret: SecretTable;
  device: DeviceTable;
  device_state: DeviceStateTable;
  device_history: DeviceHistoryTable;
  device_rollup_hour: DeviceRollupTable;
  device_rollup_day: DeviceRollupTable;
  device_command: DeviceCommandTable;
  device_operation_log: DeviceOperationLogTable;
  ingest_counter: IngestCounterTable;
  ingest_reject: IngestRejectTable;
  group_type: GroupTypeTable;
  sms_template: SmsTemplateTable;
  sms_setting: SmsSettingTable;
  sms_record: SmsRecordTable;
  system_param: SystemParamTable;
  holiday: HolidayTable;
  project_file: ProjectFileTable;
  repair_record: RepairRecordTable;
  repair_photo: RepairPhotoTable;
  repair_event: RepairEventTable;
  dataview_share: DataviewShareTable;
  registration_application: RegistrationApplicationTable;
  registration_code: RegistrationCodeTable;
  dict_override: DictOverrideTable;
  department: DepartmentTable;
  department_assignment: DepartmentAssignmentTable;
  device_group: DeviceGroupTable;
  device_group_member: DeviceGroupMemberTable;
  device_bind_record: DeviceBindRecordTable;
  device_stock: DeviceStockTable;
  device_card: DeviceCardTable;
  device_address_change: DeviceAddressChangeTable;
  project_mqtt_setting: ProjectMqttSettingTable;
  factory_test_run: FactoryTestRunTable;
  factory_test_step: FactoryTestStepTable;
  monitor_rule: MonitorRuleTable;
  monitor_message: MonitorMessageTable;
  exception_data: ExceptionDataTable;
  account_group: AccountGroupTable;
  account: AccountTable;
  account_room: AccountRoomTable;
  account_device: AccountDeviceTable;
  ledger_entry: LedgerEntryTable;
  ledger_day: LedgerDayTable;
  idempotency_key: IdempotencyKeyTable;
  account_refund: AccountRefundTable;
  money_setting: MoneySettingTable;
  balance_event: BalanceEventTable;
  account_settlement: AccountSettlementTable;
  payment_account: PaymentAccountTable;
  payment_order: PaymentOrderTable;
  automation_program: AutomationProgramTable;
  automation_scheme: AutomationSchemeTable;
  automation_task: AutomationTaskTable;
  automation_run: AutomationRunTable;
  automation_run_result: AutomationRunResultTable;
  automation_cooldown: AutomationCooldownTable;
  automation_overtime: AutomationOvertimeTable;
  billing_tariff: BillingTariffTable;
  billing_device_param: BillingDeviceParamTable;
  billing_share_team: BillingShareTeamTable;
  billing_share_member: BillingShareMemberTable;
  billing_device_relation: BillingDeviceRelationTable;
  billing_project_plan: BillingProjectPlanTable;
  billing_device_plan: BillingDevicePlanTable;
  billing_run: BillingRunTable;
  billing_line: BillingLineTable;
  billing_reading: BillingReadingTable;
  billing_bill: BillingBillTable;
  billing_supply: BillingSupplyTable;
  billing_event_done: BillingEventDoneTable;
  ops_instance: OpsInstanceTable;
  ops_trace: OpsTraceTable;
  broker_client: BrokerClientTable;
  broker_lease: BrokerLeaseTable;
}
