import { createArea, createTenantWithProject, type TestClient } from '../../test/harness.ts';

/**
 * Two tenants with a project each holding the same codes, both users logged in, and a room (building 1 / floor /
 * room) in tenant A's project: the start of every device-management test that checks tenancy.
 */
export async function twoTenantsWithRoom(k: TestClient, codes: string[], o: { a: string; b: string; projectType: string; floor: string; room: string }) {
  const a = await createTenantWithProject(k.db, o.a, codes, o.projectType);
  const b = await createTenantWithProject(k.db, o.b, codes, o.projectType);
  const tokenA = await k.login(a.username, a.password);
  const tokenB = await k.login(b.username, b.password);
  const floor = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: o.floor });
  const roomA = await createArea(k.db, { tenantId: a.tenantId, parentId: floor, level: 'room', name: o.room });
  return { a, b, tokenA, tokenB, roomA };
}
