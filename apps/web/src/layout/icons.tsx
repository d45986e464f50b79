// Menu icons by name (the server's menu list names them). A fixed, small set: the shell's bundle budget.
// Menu icons the console can draw are these; menuManager offers exactly these names.
// named imports only: the bundle keeps just these icons
import {
  AccountBookOutlined, ApiOutlined, AppstoreOutlined, BarChartOutlined, CloudServerOutlined, ClusterOutlined, DashboardOutlined,
  ExperimentOutlined, PieChartOutlined, ProjectOutlined, SettingOutlined, ToolOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

const ICONS: Record<string, ComponentType> = {
  AccountBookOutlined, ApiOutlined, BarChartOutlined, CloudServerOutlined, ClusterOutlined, DashboardOutlined,
  ExperimentOutlined, PieChartOutlined, ProjectOutlined, SettingOutlined, ToolOutlined, AppstoreOutlined,
};

export function MenuIcon({ name }: { name: string | null | undefined }) {
  const Icon = (name && ICONS[name]) || null;
  return Icon ? <Icon /> : null;
}

export const menuIconNames = Object.keys(ICONS);
