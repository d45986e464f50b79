import { useState, type ReactNode } from 'react';
import { Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../../stores/session';
import { adminKeys, tenantApi } from '../api';

/**
 * Platform administrators manage every tenant: this selector picks the tenant a screen works on (their own tenant,
 * the platform, by default). Tenant users see nothing here; the server scopes them to their own tenant anyway.
 */
export function useTenantScope(): { tenantId: number | undefined; selector: ReactNode } {
  const user = useSession((s) => s.user);
  const isPlatform = Boolean(user?.isPlatform);
  const [tenantId, setTenantId] = useState<number | undefined>(undefined);
  const tenants = useQuery({
    queryKey: adminKeys.tenantOptions,
    queryFn: () => tenantApi.page({ pageNo: 1, pageSize: 200 }),
    enabled: isPlatform,
  });
  if (!isPlatform) return { tenantId: undefined, selector: null };
  const selector = (
    <Space>
      <span>租户</span>
      <Select
        data-testid="tenant-scope"
        style={{ width: 220 }}
        showSearch={{ optionFilterProp: 'label' }}
        value={tenantId ?? user?.tenantId ?? 0}
        loading={tenants.isLoading}
        onChange={(v: number) => setTenantId(v)}
        options={(tenants.data?.rows ?? []).map((t) => ({ value: t.id, label: `${t.name}（${t.code}）` }))}
      />
    </Space>
  );
  return { tenantId: tenantId ?? user?.tenantId, selector };
}
