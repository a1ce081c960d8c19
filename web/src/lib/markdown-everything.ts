// Every feature of card Markdown at once, for screens that show cards one after another (practice): no card
// waits for maths or highlighting to load.
import { install as installCode } from './markdown-code';
import { install as installMath } from './markdown-math';

installMath();
installCode();
