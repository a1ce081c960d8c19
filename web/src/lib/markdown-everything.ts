// Every feature of card Markdown at once, for screens that show cards one after another (practice): no card
// waits for maths or highlighting to load once it has (practice fetches it beside the session's first card).
import { installHighlighter, installMath } from './markdown';
import { highlightCode } from './markdown-code';
import { katexPlugin } from './markdown-math';

installMath(katexPlugin);
installHighlighter(highlightCode);
