/**
 * Who writes each table. A table is written only by the module that owns it (modules/<owner>/); others go through
 * that module's service. `db` means the infrastructure in db/ itself. Checked against the code by owners.test.ts.
 */
export const TABLE_OWNERS = {
  tenant: 'admin',
  app_user: 'admin',
  role: 'admin',
  role_grant: 'admin',
  user_role: 'admin',
  user_project: 'admin',
  menu: 'admin',
  menu_element: 'admin',
  group_type: 'admin',
  gate_log: 'plugins/access',
  session: 'auth',
  login_attempt: 'auth',
  secret: 'db',
  area: 'projects',
  project_file: 'projects',
  sms_template: 'system',
  sms_setting: 'system',
  sms_record: 'system',
  system_param: 'system',
  holiday: 'system',
  device: 'devices',
  device_state: 'devices',
  device_history: 'devices',
  device_command: 'devices',
  device_operation_log: 'devices',
  ingest_counter: 'devices',
  ingest_reject: 'devices',
  device_group: 'device-management',
  device_group_member: 'device-management',
  device_bind_record: 'device-management',
  device_stock: 'device-management',
  device_card: 'device-management',
  device_address_change: 'device-management',
  project_mqtt_setting: 'device-management',
  factory_test_run: 'factory-test',
  factory_test_step: 'factory-test',
  monitor_rule: 'monitoring',
  monitor_message: 'monitoring',
  automation_program: 'automation',
  automation_scheme: 'automation',
  automation_task: 'automation',
  automation_run: 'automation',
  automation_run_result: 'automation',
  automation_cooldown: 'automation',
  automation_overtime: 'automation',
} as const;

/**
 * Places that may write any table: migrations, the seed data of a fresh install (platform, menus, demo tenant and
 * the demo's simulated devices), and test set-up.
 */
export const SEED_WRITERS = ['db/migrations/', 'db/seed/', 'simulator/provision.ts', 'test/'];
