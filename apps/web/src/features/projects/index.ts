/** The projects feature's public entry: areas and projects as other features read them. */
export { areaApi, areaKeys, buildingFloorOptions, projectApi, projectKeys, useAreaTree } from './api';
export { ProjectMap, type MapPoint } from './components/project-map';
