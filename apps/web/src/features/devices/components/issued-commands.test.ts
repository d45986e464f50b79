import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { CommandView, LiveCommandEvent } from '@kelvin/contracts/device';
import { commandEvents } from '../api';
import { useIssuedCommands, withStatus } from './issued-commands';

const command = (id: number, status: CommandView['status'] = 'sent'): CommandView => ({
  id, deviceId: 1, deviceCode: 'T-1', fieldCode: 'f04', value: 26, action: null, description: '设定温度 → 26.0 °C',
  status, statusLabel: status === 'sent' ? '已下发' : '等待下发', error: null, createdAt: 1, sentAt: 1, finishedAt: null, expiresAt: 2, username: 'demo',
} as CommandView);
const hear = (e: Partial<LiveCommandEvent> & { commandId: number }) => act(() => {
  commandEvents.dispatchEvent(new CustomEvent('command', { detail: { deviceId: 1, projectId: 1, status: 'acked', error: null, ...e } }));
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('commands sent from the control drawer follow the live stream', () => {
  it('flips to 已执行 the moment the acknowledgement arrives, without asking the server', () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { result } = renderHook(() => useIssuedCommands(1));
    act(() => result.current.add(command(7)));
    hear({ commandId: 7 });
    expect(result.current.issued[0]).toMatchObject({ id: 7, status: 'acked', statusLabel: '已执行' });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('an acknowledgement heard before the write\'s own answer is not lost', () => {
    const { result } = renderHook(() => useIssuedCommands(1));
    hear({ commandId: 8 });
    act(() => result.current.add(command(8)));
    expect(result.current.issued[0]).toMatchObject({ id: 8, status: 'acked' });
  });

  it('a refusal carries its reason; a late 已下发 never overwrites an outcome', () => {
    const { result } = renderHook(() => useIssuedCommands(1));
    act(() => result.current.add(command(9)));
    hear({ commandId: 9, status: 'rejected', error: '超出设备允许范围' });
    hear({ commandId: 9, status: 'sent' });
    expect(result.current.issued[0]).toMatchObject({ status: 'rejected', statusLabel: '设备拒绝', error: '超出设备允许范围' });
    expect(withStatus(command(1, 'pending'), { status: 'sent', error: null }).status).toBe('sent');
  });

  it('other devices\' commands leave the list alone; another device starts a new list', () => {
    const { result, rerender } = renderHook(({ id }) => useIssuedCommands(id), { initialProps: { id: 1 } });
    act(() => result.current.add(command(10)));
    hear({ commandId: 99 });
    expect(result.current.issued).toHaveLength(1);
    expect(result.current.issued[0].status).toBe('sent');
    rerender({ id: 2 });
    expect(result.current.issued).toEqual([]);
  });
});
