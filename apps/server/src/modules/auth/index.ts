/** Sign-in, sessions and tokens; password hashing for the user administration. */
export { createAuthService, type AuthService } from './service.ts';
export { loadSigningKey } from './tokens.ts';
export { authRoutes } from './routes.ts';
export { hashPassword, randomPassword, verifyPassword } from './passwords.ts';
export { deleteUserSessions, revokeUserSessions } from './repository.ts';
export { createCaptchas } from './captcha.ts';
