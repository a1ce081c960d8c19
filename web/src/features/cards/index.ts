// What the cards feature offers the screens that show it (the dashboard): the new-card form and the list of
// the learner's cards. Other features import it only from here (docs/architecture.md#web-layout).
export { CardList } from './card-list';
export { NewCardForm } from './new-card-form';
