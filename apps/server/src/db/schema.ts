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
export interface UserRoleTable { user_id: number; role_id: number }
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
  created_at: Millis;
}

export interface SecretTable { key: string; value: string }

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
}
