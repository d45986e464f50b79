import type {
  Authority, AuthorityNode, ElementDto, GateLogDto, GroupDto, GroupMembers, GroupTreeNode, GroupTypeDto, MenuDto, MenuTreeNode, Page,
  TenantDto, UserDto,
} from '@kelvin/contracts';
import { http } from '../../lib/http';
import type { ListParams } from '../../components/data-table';

/** The administration API (AG-Admin shape `/api/admin/{entity}`) as the screens use it. */
export interface RoleOption {
  id: number;
  name: string;
  code: string;
  groupType: string;
  grantable: boolean;
}

type Query = Record<string, string | number | undefined>;

function entity<T>(name: string) {
  const base = `/api/admin/${name}`;
  return {
    page: (q: ListParams | Query) => http.get<Page<T>>(`${base}/page`, q),
    get: (id: number) => http.get<T>(`${base}/${id}`),
    create: (body: unknown) => http.post<T>(base, body),
    update: (id: number, body: unknown) => http.put<T>(`${base}/${id}`, body),
    remove: (id: number) => http.del<null>(`${base}/${id}`),
  };
}

export const tenantApi = entity<TenantDto>('tenant');
export const userApi = {
  ...entity<UserDto>('user'),
  roles: (tenantId?: number) => http.get<RoleOption[]>('/api/admin/user/roles', { tenantId }),
  resetPassword: (id: number, password: string) => http.put<null>(`/api/admin/user/${id}/password`, { password }),
  changeOwnPassword: (oldPassword: string, newPassword: string) => http.put<null>('/api/admin/user/front/password', { oldPassword, newPassword }),
};
export const groupApi = {
  ...entity<GroupDto>('group'),
  tree: (q: { groupType?: string; tenantId?: number }) => http.get<GroupTreeNode[]>('/api/admin/group/tree', q),
  types: (tenantId?: number) => http.get<GroupTypeDto[]>('/api/admin/group/types', { tenantId }),
  authorityTree: (tenantId?: number) => http.get<AuthorityNode[]>('/api/admin/group/authority/tree', { tenantId }),
  authority: (id: number) => http.get<Authority>(`/api/admin/group/${id}/authority`),
  setAuthority: (id: number, body: Authority) => http.put<Authority>(`/api/admin/group/${id}/authority`, body),
  members: (id: number) => http.get<GroupMembers>(`/api/admin/group/${id}/user`),
  setMembers: (id: number, body: { members: number[]; leaders: number[] }) => http.put<GroupMembers>(`/api/admin/group/${id}/user`, body),
};
export const groupTypeApi = entity<GroupTypeDto>('groupType');
export const menuApi = { ...entity<MenuDto>('menu'), tree: () => http.get<MenuTreeNode[]>('/api/admin/menu/tree') };
export const elementApi = entity<ElementDto>('element');
export const gateLogApi = {
  page: (q: ListParams) => http.get<Page<GateLogDto>>('/api/admin/gateLog/page', q),
  exportUrl: '/api/admin/gateLog/export',
};

/**
 * Query keys of the administration resources, one per resource and nested by what changes together: a tenant edit
 * refreshes the tenant options, a role edit the role options, a menu edit the authority tree.
 */
export const adminKeys = {
  users: ['admin', 'user'] as const,
  userList: (tenantId: number | undefined) => ['admin', 'user', 'list', tenantId] as const,
  tenants: ['admin', 'tenant'] as const,
  tenantOptions: ['admin', 'tenant', 'options'] as const,
  /** roles and groups: trees, members, authority, the user form's role options */
  groups: ['admin', 'group'] as const,
  groupTree: (tenantId: number | undefined, groupType: string | undefined) => ['admin', 'group', 'tree', tenantId, groupType] as const,
  members: (roleId: number) => ['admin', 'group', 'members', roleId] as const,
  authority: (roleId: number) => ['admin', 'group', 'authority', roleId] as const,
  roleOptions: (tenantId: number | undefined) => ['admin', 'group', 'role-options', tenantId] as const,
  groupTypes: ['admin', 'group-type'] as const,
  groupTypeList: (tenantId: number | undefined) => ['admin', 'group-type', 'list', tenantId] as const,
  groupTypeOptions: (tenantId: number | undefined) => ['admin', 'group-type', 'options', tenantId] as const,
  menus: ['admin', 'menu'] as const,
  menuTree: ['admin', 'menu', 'tree'] as const,
  elements: (menuCode: string) => ['admin', 'menu', 'elements', menuCode] as const,
  authorityTree: (tenantId: number | undefined) => ['admin', 'menu', 'authority-tree', tenantId] as const,
  gateLog: ['admin', 'gate-log'] as const,
};
