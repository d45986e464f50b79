import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Page } from '@kelvin/contracts';
import type { DeviceDetail, DeviceRow } from '@kelvin/contracts/device';
import { setStored } from '../../lib/storage';
import { deviceKeys, useLiveDevices } from './api';
import { areaKeys } from '../projects';

/** A stand-in for the browser's EventSource: the test plays the server's events. */
class FakeSource {
  static last: FakeSource | null = null;
  listeners = new Map<string, (m: MessageEvent) => void>();
  constructor(public url: string) {
    FakeSource.last = this;
  }
  addEventListener(type: string, fn: (m: MessageEvent) => void) {
    this.listeners.set(type, fn);
  }
  close() {}
  emit(type: string, data: unknown) {
    this.listeners.get(type)?.(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

const row = (id: number): DeviceRow => ({
  id, deviceCode: `T-${id}`, deviceName: `温控器 ${id}`, deviceType: 'device20020', typeName: '地暖温控器', online: false, onlineUntil: null,
  lastReportAt: null, projectId: 1, areaId: 3, areaPath: '1号楼 / 1层 / 101室', gatewayId: null, enabled: true, fields: { f04: 22 },
});
const page = (...rows: DeviceRow[]): Page<DeviceRow> => ({ rows, total: rows.length } as Page<DeviceRow>);

let client: QueryClient;
const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;

beforeEach(() => {
  client = new QueryClient();
  vi.stubGlobal('EventSource', FakeSource);
  setStored('token', 'test-token');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('device data has one key per resource', () => {
  it('a live report updates every device list (monitor, device management, pickers) and the open detail', () => {
    const params = { projectId: 1, pageNo: 1, pageSize: 20 };
    for (const screen of ['monitor', 'admin', 'picker-batch']) client.setQueryData([...deviceKeys.list(screen), params], page(row(5), row(6)));
    client.setQueryData(deviceKeys.detail(5), { ...row(5), fieldTimes: {} } as unknown as DeviceDetail);
    renderHook(() => useLiveDevices(1), { wrapper });
    expect(FakeSource.last!.url).toContain('projectId=1');
    act(() => FakeSource.last!.emit('device', { deviceId: 5, projectId: 1, ts: 1000, lastReportAt: 1000, onlineUntil: 9e15, fields: { f04: 26 } }));
    for (const screen of ['monitor', 'admin', 'picker-batch']) {
      const got = client.getQueryData<Page<DeviceRow>>([...deviceKeys.list(screen), params])!;
      expect(got.rows[0]).toMatchObject({ id: 5, online: true, fields: { f04: 26 } });
      expect(got.rows[1].fields.f04).toBe(22);
    }
    expect(client.getQueryData<DeviceDetail>(deviceKeys.detail(5))).toMatchObject({ fields: { f04: 26 }, fieldTimes: { f04: 1000 } });
  });

  it('one invalidation reaches every screen that shows the resource', async () => {
    client.setQueryData([...deviceKeys.list('admin'), {}], page(row(1)));
    client.setQueryData([...deviceKeys.list('monitor'), {}], page(row(1)));
    client.setQueryData(deviceKeys.types(1), []);
    client.setQueryData(areaKeys.tree(1), []);
    await client.invalidateQueries({ queryKey: deviceKeys.all });
    expect(client.getQueryState([...deviceKeys.list('admin'), {}])!.isInvalidated).toBe(true);
    expect(client.getQueryState([...deviceKeys.list('monitor'), {}])!.isInvalidated).toBe(true);
    expect(client.getQueryState(deviceKeys.types(1))!.isInvalidated).toBe(true);
    // the project's area tree (device screens, area page, project view) is one entry, refreshed by an area change
    expect(client.getQueryState(areaKeys.tree(1))!.isInvalidated).toBe(false);
    await client.invalidateQueries({ queryKey: areaKeys.all });
    expect(client.getQueryState(areaKeys.tree(1))!.isInvalidated).toBe(true);
  });
});
