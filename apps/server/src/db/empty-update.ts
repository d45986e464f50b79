import { UpdateQueryNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { ResultCode } from '@kelvin/contracts';
import { AppError } from '../lib/errors.ts';

/**
 * An UPDATE with nothing to set is a request that named no known field ({} or only unknown keys): refused as a
 * validation error instead of reaching the database as invalid SQL ("update … set where …").
 */
export class RefuseEmptyUpdate implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (UpdateQueryNode.is(args.node) && !args.node.updates?.length) {
      throw new AppError(ResultCode.VALIDATION, '没有要修改的内容', { errors: [{ path: 'body', message: '没有要修改的内容' }] });
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
