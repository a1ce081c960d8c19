// The cards procedures: each line points at one handler with its input schema beside it.
import { createCard, createCardInput } from '../handlers/cards/create.js';
import { listCards, listCardsInput } from '../handlers/cards/list.js';
import { protectedProcedure, router } from '../trpc.js';

export const cardsRouter = router({
  list: protectedProcedure.input(listCardsInput).query(listCards),
  create: protectedProcedure.input(createCardInput).mutation(createCard),
});
