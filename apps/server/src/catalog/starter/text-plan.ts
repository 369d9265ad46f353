import type { TextStyleId } from '../text/styles.ts';
import type { StarterCategoryPath } from './categories.ts';

export interface TextPlanEntry {
  phrase: string;
  /** Other words people search with for this phrase. */
  tags: string[];
  categories: StarterCategoryPath[];
  /** Each style makes one item. */
  styles: TextStyleId[];
}

/** Animated text: the phrases people send most, each in a few styles. */
export const textPlan: TextPlanEntry[] = [
  {
    phrase: 'Thank you!',
    tags: ['thanks', 'thx', 'grateful', 'appreciate'],
    categories: ['Greetings/Thank You'],
    styles: ['bounce', 'neon', 'zoom-pop'],
  },
  {
    phrase: 'Thanks a lot',
    tags: ['thank you', 'thanks', 'grateful'],
    categories: ['Greetings/Thank You'],
    styles: ['rainbow', 'typewriter'],
  },
  {
    phrase: 'LOL',
    tags: ['laughing', 'funny', 'haha', 'lmao'],
    categories: ['Reactions/LOL'],
    styles: ['shake', 'rainbow', 'bounce'],
  },
  {
    phrase: 'Haha',
    tags: ['lol', 'laughing', 'funny'],
    categories: ['Reactions/LOL'],
    styles: ['shake', 'flip'],
  },
  {
    phrase: 'LMAO 😂',
    tags: ['lol', 'laughing', 'dead', 'funny'],
    categories: ['Reactions/LOL'],
    styles: ['shake', 'zoom-pop'],
  },
  {
    phrase: 'Happy Birthday!',
    tags: ['birthday', 'hbd', 'bday', 'celebrate'],
    categories: ['Celebrations/Birthday'],
    styles: ['rainbow', 'bounce', 'neon', 'zoom-pop'],
  },
  {
    phrase: 'HBD 🎂',
    tags: ['happy birthday', 'birthday', 'cake'],
    categories: ['Celebrations/Birthday'],
    styles: ['bounce', 'flip'],
  },
  {
    phrase: 'Congrats!',
    tags: ['congratulations', 'well done', 'proud'],
    categories: ['Celebrations/Congratulations'],
    styles: ['zoom-pop', 'rainbow', 'neon'],
  },
  {
    phrase: 'Congratulations',
    tags: ['congrats', 'well done', 'proud', 'success'],
    categories: ['Celebrations/Congratulations'],
    styles: ['bounce', 'flip'],
  },
  {
    phrase: 'Well done',
    tags: ['good job', 'congrats', 'proud'],
    categories: ['Celebrations/Congratulations', 'Reactions/Applause'],
    styles: ['typewriter', 'zoom-pop'],
  },
  {
    phrase: 'Good morning',
    tags: ['morning', 'gm', 'rise and shine', 'hello'],
    categories: ['Greetings/Good Morning'],
    styles: ['bounce', 'rainbow', 'typewriter'],
  },
  {
    phrase: 'Good night',
    tags: ['night', 'gn', 'sleep well', 'bedtime'],
    categories: ['Greetings/Good Night'],
    styles: ['neon', 'typewriter'],
  },
  {
    phrase: 'Sweet dreams',
    tags: ['good night', 'sleep', 'dreams'],
    categories: ['Greetings/Good Night'],
    styles: ['neon', 'flip'],
  },
  {
    phrase: 'OMG',
    tags: ['oh my god', 'shocked', 'wow', 'no way'],
    categories: ['Reactions/OMG'],
    styles: ['shake', 'zoom-pop', 'neon'],
  },
  {
    phrase: 'WOW',
    tags: ['amazing', 'omg', 'impressed'],
    categories: ['Reactions/OMG', 'Emotions/Surprised'],
    styles: ['zoom-pop', 'rainbow'],
  },
  {
    phrase: 'No way!',
    tags: ['omg', 'shocked', 'unbelievable'],
    categories: ['Reactions/OMG'],
    styles: ['shake', 'flip'],
  },
  {
    phrase: 'Hello',
    tags: ['hi', 'hey', 'greeting', 'welcome'],
    categories: ['Greetings/Hello'],
    styles: ['bounce', 'neon', 'typewriter'],
  },
  {
    phrase: 'Hi there! 👋',
    tags: ['hello', 'hey', 'wave', 'greeting'],
    categories: ['Greetings/Hello'],
    styles: ['flip', 'rainbow'],
  },
  {
    phrase: 'Hey',
    tags: ['hi', 'hello', 'greeting'],
    categories: ['Greetings/Hello'],
    styles: ['zoom-pop', 'shake'],
  },
  {
    phrase: 'Bye!',
    tags: ['goodbye', 'see you', 'later'],
    categories: ['Greetings/Goodbye'],
    styles: ['bounce', 'flip'],
  },
  {
    phrase: 'See you soon',
    tags: ['bye', 'goodbye', 'later', 'see ya'],
    categories: ['Greetings/Goodbye'],
    styles: ['typewriter', 'rainbow'],
  },
  {
    phrase: 'Miss you',
    tags: ['missing you', 'love', 'sad'],
    categories: ['Greetings/Goodbye', 'Love/Romance'],
    styles: ['neon', 'typewriter'],
  },
  {
    phrase: 'I love you',
    tags: ['love', 'ily', 'romance', 'valentine'],
    categories: ['Love/Romance'],
    styles: ['neon', 'bounce', 'zoom-pop'],
  },
  {
    phrase: 'Love you ❤️',
    tags: ['love', 'heart', 'ily'],
    categories: ['Love/Hearts', 'Love/Romance'],
    styles: ['rainbow', 'flip'],
  },
  {
    phrase: 'XOXO',
    tags: ['hugs and kisses', 'kisses', 'love'],
    categories: ['Love/Kisses'],
    styles: ['neon', 'bounce'],
  },
  {
    phrase: 'Yes!',
    tags: ['yes', 'yay', 'agree', 'success'],
    categories: ['Reactions/Yes'],
    styles: ['zoom-pop', 'bounce'],
  },
  {
    phrase: 'Nope',
    tags: ['no', 'not today', 'no way'],
    categories: ['Reactions/No'],
    styles: ['shake', 'typewriter'],
  },
  {
    phrase: 'OK 👍',
    tags: ['okay', 'ok', 'sure', 'fine', 'thumbs up'],
    categories: ['Reactions/Yes'],
    styles: ['bounce', 'zoom-pop'],
  },
  {
    phrase: 'Awesome',
    tags: ['great', 'amazing', 'cool', 'nice'],
    categories: ['Reactions/Yes', 'Emotions/Cool'],
    styles: ['rainbow', 'flip'],
  },
  {
    phrase: 'Nice!',
    tags: ['good', 'cool', 'great job'],
    categories: ['Reactions/Yes'],
    styles: ['zoom-pop', 'neon'],
  },
  {
    phrase: 'Cool',
    tags: ['nice', 'awesome', 'chill'],
    categories: ['Emotions/Cool'],
    styles: ['neon', 'flip'],
  },
  {
    phrase: 'Party time',
    tags: ['party', 'celebrate', 'fun'],
    categories: ['Celebrations/Party'],
    styles: ['rainbow', 'shake'],
  },
  {
    phrase: 'Cheers! 🥂',
    tags: ['cheers', 'toast', 'celebrate'],
    categories: ['Celebrations/Party'],
    styles: ['bounce', 'neon'],
  },
  {
    phrase: 'Happy New Year',
    tags: ['new year', 'nye', 'celebrate'],
    categories: ['Celebrations/New Year'],
    styles: ['neon', 'rainbow', 'zoom-pop'],
  },
  {
    phrase: 'Merry Christmas',
    tags: ['christmas', 'xmas', 'holidays'],
    categories: ['Celebrations/Holidays'],
    styles: ['bounce', 'typewriter'],
  },
  {
    phrase: 'Happy Friday',
    tags: ['friday', 'weekend', 'tgif'],
    categories: ['Emotions/Happy', 'Celebrations/Party'],
    styles: ['rainbow', 'bounce'],
  },
  {
    phrase: 'Sorry',
    tags: ['apology', 'my bad', 'sad'],
    categories: ['Emotions/Sad'],
    styles: ['typewriter', 'flip'],
  },
  {
    phrase: 'Ugh',
    tags: ['annoyed', 'meh', 'frustrated'],
    categories: ['Reactions/Meh', 'Emotions/Angry'],
    styles: ['shake', 'typewriter'],
  },
  {
    phrase: 'Whatever',
    tags: ['meh', 'eye roll', 'dont care'],
    categories: ['Reactions/Meh'],
    styles: ['typewriter', 'flip'],
  },
  {
    phrase: 'Hmm...',
    tags: ['thinking', 'wondering', 'hmm'],
    categories: ['Reactions/Thinking'],
    styles: ['typewriter', 'neon'],
  },
  {
    phrase: 'Bravo!',
    tags: ['applause', 'well done', 'clap'],
    categories: ['Reactions/Applause'],
    styles: ['zoom-pop', 'rainbow'],
  },
  {
    phrase: 'You got this',
    tags: ['motivation', 'support', 'you can do it', 'believe'],
    categories: ['Emotions/Happy', 'Reactions/Yes'],
    styles: ['bounce', 'neon'],
  },
  {
    phrase: 'Good luck!',
    tags: ['luck', 'best wishes', 'fingers crossed'],
    categories: ['Greetings/Goodbye'],
    styles: ['rainbow', 'zoom-pop'],
  },
  {
    phrase: 'Get well soon',
    tags: ['feel better', 'sick', 'care'],
    categories: ['Greetings/Hello', 'Love/Hearts'],
    styles: ['typewriter', 'bounce'],
  },
  {
    phrase: 'Welcome!',
    tags: ['welcome', 'hello', 'greeting'],
    categories: ['Greetings/Hello'],
    styles: ['zoom-pop', 'neon'],
  },
  {
    phrase: 'So hungry 🍕',
    tags: ['hungry', 'food', 'pizza', 'lunch'],
    categories: ['Food & Drink/Fast Food'],
    styles: ['shake', 'bounce'],
  },
  {
    phrase: 'Coffee time ☕',
    tags: ['coffee', 'morning', 'break'],
    categories: ['Food & Drink/Drinks', 'Greetings/Good Morning'],
    styles: ['typewriter', 'rainbow'],
  },
  {
    phrase: 'Game on',
    tags: ['gaming', 'play', 'lets go'],
    categories: ['Activities/Games'],
    styles: ['shake', 'neon'],
  },
  {
    phrase: "Let's go!",
    tags: ['lets go', 'hype', 'excited', 'go'],
    categories: ['Activities/Sports', 'Emotions/Happy'],
    styles: ['zoom-pop', 'shake'],
  },
  {
    phrase: 'Sunny day ☀️',
    tags: ['sun', 'summer', 'weather'],
    categories: ['Nature/Weather'],
    styles: ['bounce', 'rainbow'],
  },
  {
    phrase: 'Meow',
    tags: ['cat', 'kitty', 'cute'],
    categories: ['Animals/Cats'],
    styles: ['bounce', 'flip'],
  },
  {
    phrase: 'Woof!',
    tags: ['dog', 'puppy', 'bark'],
    categories: ['Animals/Dogs'],
    styles: ['shake', 'bounce'],
  },
];
