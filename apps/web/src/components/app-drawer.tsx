import { Drawer, type DrawerProps } from 'antd';
import { DIALOG_DEFAULTS } from '../lib/ui';

/** A drawer with the console's dialog defaults (spec §5: no closing on backdrop click or Escape). */
export function AppDrawer(props: DrawerProps) {
  return <Drawer {...DIALOG_DEFAULTS} {...props} />;
}
