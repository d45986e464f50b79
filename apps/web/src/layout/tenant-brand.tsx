/** Spec §6: logo sizes 135×52 (158×58 in the fifth variant, which the product does not have). */
export const LOGO_SIZE = { width: 135, height: 52 } as const;

/**
 * The tenant's logo when it uploaded one, else its brand name (else the product's): in the sidebar head, the mobile top
 * bar and on the login page reached through the tenant's link (/login?tenantId=).
 */
export function TenantBrand({ tenantId, brand, hasLogo, collapsed = false, scale = 1, color, withName = false }: {
  tenantId: number | null | undefined;
  brand: string | null | undefined;
  hasLogo: boolean | undefined;
  collapsed?: boolean;
  /** the mobile top bar is 52 px tall including its padding */
  scale?: number;
  color?: string;
  /** also the brand name under the logo */
  withName?: boolean;
}) {
  const name = brand || 'Kelvin 能源云';
  if (hasLogo && tenantId != null && !collapsed) {
    const logo = (
      <img
        data-testid="tenant-logo"
        src={`/api/v1/tenant/logo?tenantId=${tenantId}`}
        alt={name}
        width={Math.round(LOGO_SIZE.width * scale)}
        height={Math.round(LOGO_SIZE.height * scale)}
        style={{ objectFit: 'contain', display: 'block', flex: 'none' }}
      />
    );
    // the login page of the tenant's link names the brand beside its logo (spec §3 brand response)
    if (!withName || !brand) return logo;
    return (
      <span style={{ display: 'inline-flex', flexDirection: 'column', alignItems: 'center', gap: 4 }}>
        {logo}
        <span data-testid="tenant-brand-name" style={{ fontWeight: 700, letterSpacing: 1, color }}>{brand}</span>
      </span>
    );
  }
  return (
    <span data-testid="brand" style={{ fontWeight: 700, letterSpacing: 1, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', color }}>
      {collapsed ? name.slice(0, 1) : name}
    </span>
  );
}

/** The tenant's brand name in the desktop top bar (spec §2.2), whatever the sidebar head shows. */
export function BrandName({ brand }: { brand: string | null | undefined }) {
  if (!brand) return null;
  return (
    <span data-testid="navbar-brand" title={brand} style={{ fontWeight: 600, color: '#12507f', maxWidth: 200, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', flex: 'none' }}>
      {brand}
    </span>
  );
}
