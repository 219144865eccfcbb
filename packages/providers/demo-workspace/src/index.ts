import { greet } from './greet.js';
import { sum } from './math.js';

console.log(greet('world'), sum([1, 2, 3]));
