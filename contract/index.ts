export * from './auth';
export * from './categories';
export * from './competitions';
export * from './errors';
export * from './money';
export * from './realtime';
export * from './site';
