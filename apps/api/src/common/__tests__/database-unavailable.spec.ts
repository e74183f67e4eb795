import { Client } from 'pg';
import { databaseUnavailable } from '../errors/database-unavailable';
import { QueryTimeoutClient } from '../../database/query-timeout-client';
import { freePort } from '../../../test/free-port';

/** An error as Node's net module makes it: only a code says what happened, and to which peer nobody says. */
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code, syscall: 'connect' });

describe('databaseUnavailable', () => {
  it('counts a socket error as the database lost only when the database client failed with it', async () => {
    const port = await freePort();
    const refused = await new QueryTimeoutClient({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' }).connect().catch((error: unknown) => error);
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
    expect(databaseUnavailable(refused)).toBe('lost');
    // The same code from another client (Redis's, say) is not the database's.
    expect(databaseUnavailable(socketError('ECONNREFUSED'))).toBeUndefined();
    const plain = await new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' }).connect().catch((error: unknown) => error);
    expect(databaseUnavailable(plain)).toBeUndefined();
  });

  it('counts too_many_connections as busy, and leaves disk_full and out_of_memory errors', () => {
    const sql = (code: string) => Object.assign(new Error('x'), { code });
    expect(databaseUnavailable(sql('53300'))).toBe('busy');
    expect(databaseUnavailable(sql('53100'))).toBeUndefined();
    expect(databaseUnavailable(sql('53200'))).toBeUndefined();
    expect(databaseUnavailable(sql('57014'))).toBe('busy');
    expect(databaseUnavailable(sql('55P03'))).toBe('busy');
    expect(databaseUnavailable(sql('57P01'))).toBe('lost');
  });
});
