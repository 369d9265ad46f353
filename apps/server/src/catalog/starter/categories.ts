/**
 * The starter catalog's categories, in the order they are listed, each with its subcategories.
 * Items name them as `Parent/Sub`.
 */
export const starterCategories = [
  {
    name: 'Reactions',
    subcategories: ['LOL', 'Yes', 'No', 'OMG', 'Thinking', 'Applause', 'Meh'],
  },
  {
    name: 'Emotions',
    subcategories: ['Happy', 'Sad', 'Angry', 'Surprised', 'Silly', 'Sleepy', 'Cool'],
  },
  { name: 'Love', subcategories: ['Hearts', 'Kisses', 'Romance'] },
  {
    name: 'Celebrations',
    subcategories: ['Birthday', 'Party', 'Congratulations', 'Holidays', 'New Year'],
  },
  {
    name: 'Greetings',
    subcategories: ['Hello', 'Good Morning', 'Good Night', 'Thank You', 'Goodbye'],
  },
  {
    name: 'Animals',
    subcategories: ['Cats', 'Dogs', 'Birds', 'Sea Life', 'Wild Animals', 'Bugs'],
  },
  {
    name: 'Food & Drink',
    subcategories: ['Fruit', 'Sweets', 'Fast Food', 'Drinks', 'Vegetables'],
  },
  { name: 'Nature', subcategories: ['Weather', 'Flowers', 'Plants', 'Sky & Space'] },
  { name: 'Activities', subcategories: ['Sports', 'Games', 'Music'] },
] as const;

type Starter = (typeof starterCategories)[number];
export type StarterCategoryPath = {
  [K in Starter as K['name']]: `${K['name']}/${K['subcategories'][number]}`;
}[Starter['name']];
