import { ruleSuite } from './endpoint-rules.ts';
import { DICTIONARY_ROWS, prepareDictionary } from './rules-dictionary.ts';

ruleSuite('数据字典的权限与租户隔离（表驱动）', DICTIONARY_ROWS, { prepare: prepareDictionary });
