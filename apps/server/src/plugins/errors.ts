import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ResultCode } from '@kelvin/contracts';
import { AppError } from '../lib/errors.ts';

/**
 * Renders every failure as the `{ code, msg, data, traceId }` envelope with a Chinese message; internals never leak.
 * The trace id lets whoever saw the failure find the request among the kept traces (调用链路追踪).
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const traceId = request.trace?.traceId;
    if (error instanceof AppError) {
      return reply.status(error.httpStatus).send({ code: error.code, msg: error.message, data: error.data, traceId });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        path: [error.validationContext, v.instancePath.replace(/^\//, '').replace(/\//g, '.')].filter(Boolean).join('.'),
        message: v.message ?? '格式不正确',
      }));
      return reply.status(400).send({ code: ResultCode.VALIDATION, msg: errors[0]?.message ?? '参数校验失败', data: { errors }, traceId });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413) return reply.status(413).send({ code: ResultCode.VALIDATION, msg: '请求内容过大', data: null, traceId });
    if (status === 415) return reply.status(415).send({ code: ResultCode.VALIDATION, msg: '不支持的内容类型', data: null, traceId });
    if (status >= 400 && status < 500) {
      const msg = (error as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.message?.includes('JSON')
        ? '请求内容不是有效的 JSON'
        : '请求格式不正确';
      return reply.status(400).send({ code: ResultCode.VALIDATION, msg, data: null, traceId });
    }
    // SQLite locked by another process past busy_timeout, or PostgreSQL refusing connections: try again later
    const dbCode = (error as { code?: unknown }).code;
    if (dbCode === 'SQLITE_BUSY' || dbCode === 'SQLITE_LOCKED' || dbCode === '53300' || dbCode === '57P03') {
      request.log.warn({ err: error }, 'database busy');
      return reply.status(503).send({ code: ResultCode.SERVER_ERROR, msg: '数据库繁忙，请稍后重试', data: null, traceId });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: ResultCode.SERVER_ERROR, msg: '服务器内部错误，请稍后重试', data: null, traceId });
  });
}
