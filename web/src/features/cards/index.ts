// What the cards feature offers the screens that show it (the dashboard, Browse): the new-card form, the list of
// the learner's cards and the tag picker. Other features import it only from here (docs/architecture.md#web-layout).
export { CardList } from './card-list';
export { NewCardForm } from './new-card-form';
export { TagPicker } from './tag-picker';
