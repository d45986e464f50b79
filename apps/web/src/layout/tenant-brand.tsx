/** Spec §6: logo sizes 135×52 (158×58 in the fifth variant, which the product does not have). */
export const LOGO_SIZE = { width: 135, height: 52 } as const;

/**
 * The tenant's logo when it uploaded one, else its brand name (else the product's): in the sidebar head, the mobile top
 * bar and on the login page reached through the tenant's link (/login?tenantId=).
 */
export function TenantBrand({ tenantId, brand, hasLogo, collapsed = false, scale = 1, color }: {
  tenantId: number | null | undefined;
  brand: string | null | undefined;
  hasLogo: boolean | undefined;
  collapsed?: boolean;
  /** the mobile top bar is 52 px tall including its padding */
  scale?: number;
  color?: string;
}) {
  const name = brand || 'Kelvin 能源云';
  if (hasLogo && tenantId != null && !collapsed) {
    return (
      <img
        data-testid="tenant-logo"
        src={`/api/v1/tenant/logo?tenantId=${tenantId}`}
        alt={name}
        width={Math.round(LOGO_SIZE.width * scale)}
        height={Math.round(LOGO_SIZE.height * scale)}
        style={{ objectFit: 'contain', display: 'block', flex: 'none' }}
      />
    );
  }
  return (
    <span data-testid="brand" style={{ fontWeight: 700, letterSpacing: 1, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', color }}>
      {collapsed ? name.slice(0, 1) : name}
    </span>
  );
}
