/** The projects feature's public entry: areas and projects as other features read them. */
export { BUILDINGS_AND_FLOORS, areaApi, areaKeys, buildingFloorOptions, projectApi, projectKeys, useAreaTree } from './api';
export { ProjectMap, type MapPoint } from './components/project-map';
export { AreaTreeSelect } from './components/area-tree-select';
