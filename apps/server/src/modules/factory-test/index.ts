/** The factory test benches (test-equipment pages): scripted checks of devices through the device core. */
export { createFactoryTestService, type FactoryTestService } from './service.ts';
export { factoryTestRoutes } from './routes.ts';
