import { useCallback, useEffect, useRef, useState } from 'react';
import {
  COMMAND_STATUS_LABELS, FINISHED_COMMAND_STATUSES, advancesCommand, type CommandStatus, type CommandView, type LiveCommandEvent,
} from '@kelvin/contracts/device';
import { commandEvents, deviceApi } from '../api';

/** status changes heard for commands this screen has not been told about yet (the write's answer may come later) */
const HEARD_LIMIT = 500;
const POLL_MS = 3000;

/** A command with a status heard later applied, if it moves the command on. */
export function withStatus(c: CommandView, next: { status: CommandStatus; error: string | null }): CommandView {
  if (!advancesCommand(c.status, next.status)) return c;
  return { ...c, status: next.status, statusLabel: COMMAND_STATUS_LABELS[next.status], error: next.error };
}

/**
 * The commands sent from one screen and their fate, live: a status change on the stream applies at once, also one
 * that arrives before the write's own answer (a connected device acknowledges within milliseconds); a slow poll
 * covers a stream that is reconnecting. `resetKey` (the device) starts a new list.
 */
export function useIssuedCommands(resetKey: unknown) {
  const [issued, setIssued] = useState<CommandView[]>([]);
  const heard = useRef(new Map<number, LiveCommandEvent>());
  const issuedRef = useRef(issued);
  useEffect(() => {
    issuedRef.current = issued;
  }, [issued]);
  useEffect(() => {
    setIssued([]);
  }, [resetKey]);

  useEffect(() => {
    const apply = (next: Pick<LiveCommandEvent, 'commandId' | 'status' | 'error'>) => setIssued((list) => (
      list.some((c) => c.id === next.commandId) ? list.map((c) => (c.id === next.commandId ? withStatus(c, next) : c)) : list));
    const onEvent = (e: Event) => {
      const event = (e as CustomEvent<LiveCommandEvent>).detail;
      heard.current.delete(event.commandId);
      heard.current.set(event.commandId, event);
      if (heard.current.size > HEARD_LIMIT) heard.current.delete(heard.current.keys().next().value!);
      apply(event);
    };
    commandEvents.addEventListener('command', onEvent);
    const poll = setInterval(() => {
      for (const c of issuedRef.current) {
        if (FINISHED_COMMAND_STATUSES.has(c.status)) continue;
        void deviceApi.command(c.id).then((got) => apply({ commandId: got.id, status: got.status, error: got.error }), () => undefined);
      }
    }, POLL_MS);
    return () => {
      commandEvents.removeEventListener('command', onEvent);
      clearInterval(poll);
    };
  }, []);

  const add = useCallback((c: CommandView) => {
    const early = heard.current.get(c.id);
    setIssued((list) => [early ? withStatus(c, early) : c, ...list]);
  }, []);
  return { issued, add };
}
