import { create } from 'zustand';
import type { AreaTreeNode } from '@kelvin/contracts';
import { reportGroupsOf, type ProjectContext } from '@kelvin/contracts/access';
import type { ReportGroup } from '@kelvin/contracts/menus';
import { http } from '../lib/http';
import { removeStored, setStored } from '../lib/storage';

export interface ProjectOption {
  id: number;
  label: string;
  /** project type code */
  attr4: string | null;
  value: number;
  region: string;
}

export interface DeviceTypeOption {
  code: string;
  name: string;
}

interface ProjectState {
  loaded: boolean;
  roots: AreaTreeNode[];
  projects: ProjectOption[];
  current: ProjectOption | null;
  projectType: string | null;
  projectType2: number | null;
  billingScheme: number | null;
  reportGroups: ReportGroup[];
  deviceTypes: DeviceTypeOption[];
  loadProjects(): Promise<ProjectOption[]>;
  /** Select a project and fetch its project types, device types and billing scheme. */
  choose(id: number): Promise<void>;
  reset(): void;
}

/** Spec §5: a project id must be a number greater than 0. */
export function parseProjectId(raw: unknown): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** Projects in tree order: the first is the first project of the first root's children (spec §4). */
export function flattenProjects(roots: AreaTreeNode[]): ProjectOption[] {
  const out: ProjectOption[] = [];
  const walk = (nodes: AreaTreeNode[], region: string) => {
    for (const n of nodes) {
      if (n.level === 'project') out.push({ id: n.id, label: n.label, attr4: n.attr4, value: n.value, region });
      else walk(n.children, n.level === 'region' ? n.label : region);
    }
  };
  walk(roots, '');
  return out;
}

/** Which project to select on first load: the stored one if valid and visible, else the first (spec §4). */
export function initialProject(projects: ProjectOption[], wanted: unknown): ProjectOption | null {
  const id = parseProjectId(wanted);
  return (id !== null && projects.find((p) => p.id === id)) || projects[0] || null;
}

let latestChoice: symbol | null = null;

const EMPTY = { projectType: null, projectType2: null, billingScheme: null, reportGroups: [] as ReportGroup[], deviceTypes: [] as DeviceTypeOption[] };

export const useProject = create<ProjectState>((set, get) => ({
  loaded: false,
  roots: [],
  projects: [],
  current: null,
  ...EMPTY,

  async loadProjects() {
    const roots = await http.get<AreaTreeNode[]>('/api/v1/area/treeonlyproject/-1');
    const projects = flattenProjects(roots);
    set({ roots, projects, loaded: true });
    return projects;
  },

  async choose(id) {
    const p = get().projects.find((x) => x.id === id);
    if (!p) return;
    const asked = Symbol('choice');
    latestChoice = asked;
    // A switch is all or nothing: the new project takes over (header, menus, cookies) only once its types, device
    // types and billing scheme are in; a failed load leaves the old project in place and rejects (the HTTP client
    // said why). The first choice has no old project to keep: its screens may start loading at once.
    if (!get().current) {
      set({ current: p });
      setStored('projectId', p.id);
      setStored('projectName', p.label);
    }
    const [types, deviceTypes, scheme] = await Promise.all([
      http.get<{ projectType: string | null; projectType2: number | null }[]>('/api/v1/area/projecttypelist', { projectId: id }),
      http.get<DeviceTypeOption[]>(`/api/v1/area/devicetypebyproject/${id}`),
      http.get<{ paraValue: number | null }>(`/api/v1/area/projectpara/getpara/${id}/projectBillingScheme`),
    ]);
    if (latestChoice !== asked) return; // a later choice won
    const t = types[0] ?? { projectType: null, projectType2: null };
    setStored('projectId', p.id);
    setStored('projectName', p.label);
    setStored('projectType', t.projectType);
    set({
      current: p,
      projectType: t.projectType,
      projectType2: t.projectType2,
      // Spec §4: no value clears the stored scheme (and its report groups).
      billingScheme: scheme.paraValue ?? null,
      reportGroups: [...reportGroupsOf(scheme.paraValue)],
      deviceTypes,
    });
  },

  reset() {
    removeStored('projectId');
    removeStored('projectName');
    removeStored('projectType');
    set({ loaded: false, roots: [], projects: [], current: null, ...EMPTY });
  },
}));

export function projectContext(s: Pick<ProjectState, 'projectType' | 'projectType2' | 'billingScheme' | 'deviceTypes'>): ProjectContext {
  return { projectType: s.projectType, projectType2: s.projectType2, billingScheme: s.billingScheme, deviceTypes: s.deviceTypes.map((t) => t.code) };
}

