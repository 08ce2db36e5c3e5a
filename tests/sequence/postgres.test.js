// snowmint/sequence on a real PostgreSQL (a private cluster started here):
// pg (Pool and Client), postgres.js, and the native-sequence mode.
import { storeSuite } from './suite.js';
import { startPostgres } from './servers.js';

storeSuite({ name: 'postgresql', start: startPostgres, kinds: ['pg', 'postgres.js', 'pg-sequence', 'pg-client'] });
