// snowmint/sequence on a real MariaDB (a private mariadbd started here) through mysql2.
import { storeSuite } from './suite.js';
import { startMariadb } from './servers.js';

storeSuite({ name: 'mariadb', start: startMariadb, kinds: ['mysql'], hang: true });
