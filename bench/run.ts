// `npm run bench`: runs every benchmark against the built packages (build first: `pnpm run build:all`)
// and real PostgreSQL (DATABASE_URL, else the local default). Each prints its own ratio to a baseline
// measured in the same run, so results compare across machines without absolute thresholds.
import { cardCreation } from './cards-create.ts';

const adminUrl = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
await cardCreation(adminUrl);
