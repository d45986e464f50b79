/**
 * Which component renders which screen code. A new screen is one line here (plus its component); the route itself
 * comes from the menu tree in packages/contracts/src/menus.ts.
 */
import { registerPages } from './pages';

void registerPages;
