// Writes data/intents.json: 24 intents and 20 utterances each, composed from hand-written templates and slot
// values with a seeded PRNG, so `pnpm run generate-data` (this script, then biome's formatter) reproduces the
// committed file byte for byte.
import { writeFileSync } from "node:fs"

const UTTERANCES_PER_INTENT = 20

// mulberry32: tiny and seedable; Math.random would make the committed dataset unreproducible.
const prng = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const random = prng(20251121)
const pick = (values) => values[Math.floor(random() * values.length)]
const shuffle = (values) => {
  const copy = [...values]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j], copy[i]]
  }
  return copy
}

const SLOTS = {
  amount: ["$50", "$200", "120 dollars", "$1,250", "75 bucks", "$40", "500 dollars", "$18.99"],
  person: ["my mom", "my brother", "Sarah", "Alex", "my landlord", "Dave", "my roommate", "Priya"],
  account: ["checking", "savings", "joint account", "business account", "credit card", "travel account"],
  city: ["Denver", "Chicago", "Lisbon", "Tokyo", "Austin", "Seattle", "Paris", "Toronto", "Miami", "Berlin"],
  day: ["tomorrow", "next Friday", "on the 14th", "this weekend", "Monday", "next week", "tonight", "on Sunday"],
  time: ["6am", "7:30", "5:45 in the morning", "noon", "10 pm", "6:15", "8 o'clock", "quarter past seven"],
  duration: ["10 minutes", "25 minutes", "an hour", "90 seconds", "45 minutes", "3 minutes", "half an hour"],
  item: ["sneakers", "blender", "headphones", "jacket", "phone case", "coffee maker", "desk lamp", "rug"],
  order: ["#48213", "#55102", "#30977", "#61840", "#27419", "#90356"],
  music: ["Taylor Swift", "some jazz", "Bohemian Rhapsody", "lo-fi beats", "the Beatles", "Miles Davis", "80s rock"],
  artist: ["Taylor Swift", "the Beatles", "Miles Davis", "Adele", "Bad Bunny", "Radiohead"],
  language: ["Spanish", "French", "German", "Japanese", "Italian", "Portuguese", "Korean"],
  phrase: [
    "where is the train station",
    "thank you very much",
    "I'm allergic to peanuts",
    "how much does this cost",
    "good morning",
    "can I see the menu",
  ],
  currency: ["euros", "yen", "pounds", "Canadian dollars", "pesos", "Swiss francs"],
  bill: ["electric bill", "phone bill", "water bill", "internet bill", "gas bill", "credit card bill"],
  merchant: [
    "Amazon",
    "a gas station",
    "Uber",
    "some place called QuikMart",
    "Netflix",
    "a parking garage",
    "a hotel in Vegas",
  ],
  restaurant: ["the Thai place on Main Street", "Luigi's", "Sakura Sushi", "that new taco spot", "the steakhouse"],
  people: ["two", "four", "6", "a party of 8", "three", "five"],
  task: [
    "call the dentist",
    "pick up the dry cleaning",
    "submit the expense report",
    "water the plants",
    "pay rent",
    "buy milk",
    "take my meds",
  ],
  flight: ["UA 227", "DL 1450", "AA 88", "my flight to Chicago", "the 3:40 to Boston", "BA 117"],
  nights: ["two nights", "3 nights", "the weekend", "a week", "one night"],
}

// Descriptions are what a reader of the prompt sees; keywords are deliberately partial, as real label docs are.
const INTENTS = [
  {
    name: "check_balance",
    description: "Ask how much money is currently in one of the user's accounts.",
    keywords: ["balance", "available funds"],
    templates: [
      "what's my balance",
      "how much money do I have in {account}",
      "what is the balance on my {account}",
      "can you tell me how much is left in my {account}",
      "am I overdrawn?",
      "do I have enough in {account} to cover {amount}?",
      "show me my available funds",
      "how much cash is in my {account} right now",
      "check my {account} balance please",
      "what do I have in savings",
      "did my paycheck come in? how much do I have now",
      "remaining balance on the {account}?",
      "how broke am I this month",
      "funds available in {account}?",
    ],
  },
  {
    name: "transfer_money",
    description: "Move money between the user's own accounts or send it to another person.",
    keywords: ["transfer", "send money", "wire"],
    templates: [
      "transfer {amount} from checking to savings",
      "send {amount} to {person}",
      "move {amount} into my {account}",
      "I need to wire {amount} to {person}",
      "can you send {person} {amount} for dinner",
      "pay {person} back {amount}",
      "put {amount} from savings into checking",
      "I owe {person} {amount}, can you send it",
      "transfer money to {person} {day}",
      "shift {amount} over to my {account}",
      "venmo {person} {amount}",
      "split the rent with {person} and send them {amount}",
    ],
  },
  {
    name: "report_lost_card",
    description: "Report a lost or stolen card and have it blocked.",
    keywords: ["lost", "stolen", "block card"],
    templates: [
      "I lost my card",
      "my wallet was stolen with my debit card in it",
      "please block my credit card, I can't find it",
      "someone stole my card",
      "I think I left my card at the bar last night",
      "freeze my card right now",
      "my card is missing",
      "can't find my visa anywhere, what do I do",
      "I dropped my card somewhere in {city}",
      "lock my debit card please",
      "my purse got snatched and my cards were in it",
      "need to report a stolen credit card",
      "card's gone, I need a replacement",
    ],
  },
  {
    name: "dispute_charge",
    description: "Question or dispute a charge on the user's statement that they do not recognise or think is wrong.",
    keywords: ["dispute", "unauthorized charge", "don't recognize"],
    templates: [
      "there's a charge from {merchant} I don't recognize",
      "I was charged twice by {merchant}",
      "I want to dispute a {amount} charge",
      "what is this {amount} payment to {merchant} on my statement",
      "{merchant} billed me {amount} but I cancelled",
      "there is a transaction on my {account} I never made",
      "why did {merchant} take {amount} from my account",
      "I think I was overcharged at {merchant}",
      "unauthorized charge on my card",
      "someone used my card at {merchant}, that wasn't me",
      "can I get my money back for a payment I didn't make",
      "weird {amount} debit from {merchant}, can you look into it",
    ],
  },
  {
    name: "pay_bill",
    description: "Pay a bill such as electricity, phone, water, internet or a credit card.",
    keywords: ["pay", "bill", "due"],
    templates: [
      "pay my {bill}",
      "I need to pay the {bill} before {day}",
      "can you take care of the {bill}",
      "pay {amount} toward my {bill}",
      "when is my {bill} due",
      "set up autopay for the {bill}",
      "settle the {bill} from my {account}",
      "pay off my credit card",
      "make a payment on my {bill}",
      "the {bill} came, can you pay it",
      "I want to pay rent",
      "schedule the {bill} payment for {day}",
    ],
  },
  {
    name: "track_order",
    description: "Find out where an order or package is and when it will be delivered.",
    keywords: ["track", "delivery", "package", "shipped"],
    templates: [
      "where is my order",
      "track order {order}",
      "when will my {item} arrive",
      "has my package shipped yet",
      "my {item} still hasn't shown up",
      "what's the status of order {order}",
      "is the {item} out for delivery",
      "it's been two weeks, where's my stuff",
      "can I get a tracking number for the {item}",
      "the delivery was supposed to be {day}, any update?",
      "did the {item} ship",
      "when does order {order} get here",
    ],
  },
  {
    name: "cancel_order",
    description: "Cancel an order that has not been delivered yet.",
    keywords: ["cancel order"],
    templates: [
      "cancel my order",
      "I want to cancel order {order}",
      "please don't ship the {item}",
      "I changed my mind about the {item}, stop the order",
      "cancel the {item} I ordered {day}",
      "can I still cancel order {order}",
      "I ordered the wrong {item}, cancel it before it ships",
      "stop order {order}",
      "I no longer need the {item} I just bought",
      "cancel the purchase I made this morning",
      "kill that order, I found it cheaper",
      "undo my last order",
    ],
  },
  {
    name: "return_item",
    description: "Return a purchased item or ask for a refund on it.",
    keywords: ["return", "refund", "exchange"],
    templates: [
      "I want to return the {item}",
      "how do I send back my {item}",
      "the {item} arrived broken, I want a refund",
      "can I exchange the {item} for a different size",
      "start a return for order {order}",
      "the {item} doesn't fit",
      "I'd like my money back for the {item}",
      "what's your return policy",
      "refund order {order} please",
      "the {item} is not what I expected, can I send it back",
      "print a return label for the {item}",
      "my {item} stopped working after a week, I want to return it",
    ],
  },
  {
    name: "change_address",
    description: "Change the user's shipping or home address on file.",
    keywords: ["address", "moved"],
    templates: [
      "I moved, update my address",
      "change my shipping address",
      "my new address is 42 Elm Street",
      "update the address on my account",
      "ship to my work address from now on",
      "I'm relocating to {city} {day}, change my address",
      "my home address is wrong in your system",
      "please use my new apartment for deliveries",
      "I live in {city} now",
      "edit my mailing address",
      "new place, new address: 9 Oak Lane, {city}",
    ],
  },
  {
    name: "reset_password",
    description: "Recover access when the password is forgotten, login fails or the user cannot sign in.",
    keywords: ["password", "log in", "locked out"],
    templates: [
      "I forgot my password",
      "reset my password",
      "I can't log in",
      "I'm locked out of my account",
      "the app says my password is wrong",
      "how do I change my password",
      "I never got the reset email",
      "can't sign in to my account",
      "my login isn't working",
      "I need a new password",
      "the verification code never arrives so I can't get in",
      "too many failed attempts and now I'm locked out",
    ],
  },
  {
    name: "close_account",
    description: "Close or delete the user's account permanently.",
    keywords: ["close account", "delete account"],
    templates: [
      "close my account",
      "I want to delete my account",
      "how do I cancel my membership",
      "please shut down my {account}",
      "I'm done with this bank, close everything",
      "delete all my data and my profile",
      "terminate my account",
      "I'd like to close my {account}",
      "remove my account permanently",
      "I'm switching banks, close my {account}",
      "deactivate my profile",
    ],
  },
  {
    name: "book_flight",
    description: "Book a plane ticket to travel to a destination.",
    keywords: ["flight", "fly", "plane ticket"],
    templates: [
      "book a flight to {city}",
      "I need to fly to {city} {day}",
      "get me a plane ticket to {city}",
      "find flights from {city} to {city} {day}",
      "I want to go to {city} {day}, cheapest option by air",
      "book me on the morning flight to {city}",
      "round trip to {city} for {people}",
      "can you get me a one-way ticket to {city}",
      "I'd like to travel to {city} {day}",
      "reserve a seat on a plane to {city}",
      "any nonstop flights to {city} {day}?",
      "book two tickets to {city} for our honeymoon",
    ],
  },
  {
    name: "flight_status",
    description:
      "Check whether a flight is on time or delayed, when it departs or lands, and which gate it leaves from.",
    keywords: ["delayed", "on time", "gate", "status"],
    templates: [
      "is {flight} on time",
      "is my flight delayed",
      "what gate does {flight} leave from",
      "has {flight} landed yet",
      "status of {flight}",
      "when does {flight} depart",
      "is the flight to {city} still leaving at {time}",
      "did {flight} get cancelled",
      "what time does {flight} arrive",
      "my flight to {city}, is it delayed?",
      "is {flight} boarding yet",
      "check the status of my flight",
    ],
  },
  {
    name: "book_hotel",
    description: "Reserve a hotel room or other lodging or accommodation for some nights.",
    keywords: ["hotel", "room", "stay"],
    templates: [
      "book a hotel in {city}",
      "I need a room in {city} for {nights}",
      "find me a place to stay in {city} {day}",
      "reserve a hotel near the airport in {city}",
      "get me a double room for {nights}",
      "any hotels in {city} under $150 a night?",
      "book somewhere to sleep in {city} for {nights}",
      "I need accommodation in {city} {day}",
      "reserve a suite for {people} in {city}",
      "can you find an Airbnb in {city} for {nights}",
      "where can I stay in {city} this weekend",
    ],
  },
  {
    name: "book_restaurant",
    description: "Reserve a table at a restaurant for dinner, lunch or brunch.",
    keywords: ["table", "reservation", "restaurant"],
    templates: [
      "book a table for {people} at {restaurant}",
      "make a dinner reservation for {people} {day}",
      "reserve a table at {restaurant} at {time}",
      "can you get us into {restaurant} {day}",
      "I need a reservation for {people} at {time}",
      "book dinner at {restaurant}",
      "find a table for {people} somewhere Italian {day}",
      "is there availability at {restaurant} {day} at {time}",
      "get me a table for two tonight",
      "reserve brunch for {people} {day}",
      "we want to eat at {restaurant} {day}, can you book it",
    ],
  },
  {
    name: "set_alarm",
    description: "Set an alarm to go off at a specific clock time.",
    keywords: ["alarm", "wake"],
    templates: [
      "set an alarm for {time}",
      "wake me up at {time}",
      "alarm for {time} {day}",
      "I need to be up at {time}",
      "set my alarm for {time} on weekdays",
      "make sure I'm awake by {time}",
      "get me up at {time} {day}",
      "new alarm {time}",
      "can you set a wake up call for {time}",
      "change my alarm to {time}",
      "I have an early flight, wake me at {time}",
    ],
  },
  {
    name: "set_timer",
    description: "Start a countdown timer for a number of minutes or seconds.",
    keywords: ["timer", "countdown"],
    templates: [
      "set a timer for {duration}",
      "start a {duration} timer",
      "timer {duration}",
      "count down {duration}",
      "let me know when {duration} is up",
      "I'm boiling eggs, {duration} please",
      "start a countdown for {duration}",
      "set a {duration} timer for the pasta",
      "give me {duration} and then beep",
      "tell me when {duration} have passed",
      "pizza needs {duration}, set it",
    ],
  },
  {
    name: "set_reminder",
    description: "Remind the user to do something at a later time so they remember it.",
    keywords: ["remind", "reminder", "don't forget"],
    templates: [
      "remind me to {task} {day}",
      "set a reminder to {task}",
      "don't let me forget to {task}",
      "remind me at {time} to {task}",
      "I need a reminder to {task} {day}",
      "make a note to {task} {day}",
      "ping me {day} about {task}",
      "can you remember that I have to {task}",
      "add a reminder: {task}",
      "at {time} tell me to {task}",
      "I keep forgetting to {task}, help me remember",
    ],
  },
  {
    name: "weather",
    description: "Get the weather forecast: temperature, hot or cold, sun, rain, snow or storms.",
    keywords: ["weather", "forecast", "rain", "temperature"],
    templates: [
      "what's the weather in {city}",
      "will it rain {day}",
      "weather forecast for {city} {day}",
      "do I need an umbrella {day}",
      "how hot is it going to be in {city}",
      "is it going to snow in {city} {day}",
      "should I bring a jacket {day}",
      "what's the temperature outside",
      "how cold will it get tonight",
      "is it sunny in {city} right now",
      "any storms coming {day}?",
      "is it nice out in {city}",
    ],
  },
  {
    name: "play_music",
    description: "Play a song, artist, album, playlist or genre of music.",
    keywords: ["play", "song", "music"],
    templates: [
      "play {music}",
      "put on some {music}",
      "I want to hear {music}",
      "play my workout playlist",
      "can you play something relaxing",
      "shuffle songs by {artist}",
      "start the new album by {artist}",
      "music please",
      "play the next song",
      "throw on {music} while I cook",
      "queue up {music}",
    ],
  },
  {
    name: "translate",
    description:
      "Translate a word or phrase into another language (Spanish, French, German…), or say what a foreign word means.",
    keywords: ["translate", "in spanish", "language"],
    templates: [
      "translate '{phrase}' into {language}",
      "how do you say '{phrase}' in {language}",
      "what is '{phrase}' in {language}",
      "what does 'merci beaucoup' mean",
      "say '{phrase}' in {language}",
      "how would I write '{phrase}' in {language}",
      "{language} for '{phrase}'?",
      "translate this to {language}: {phrase}",
      "what's the {language} word for cheese",
      "help me say '{phrase}' to a waiter in {language}",
    ],
  },
  {
    name: "exchange_rate",
    description: "Ask how much one currency (dollars, euros, pounds, yen…) is worth in another, or convert an amount.",
    keywords: ["exchange rate", "convert", "currency"],
    templates: [
      "what's the exchange rate for {currency}",
      "how many {currency} is {amount}",
      "convert {amount} to {currency}",
      "how much is a dollar worth in {currency}",
      "what are {currency} trading at today",
      "if I change {amount} how many {currency} do I get",
      "dollar to {currency} rate",
      "is now a good time to buy {currency}",
      "how far does {amount} go in {currency}",
      "what's {amount} in {currency}",
      "what will I pay in {currency} for {amount}",
    ],
  },
  {
    name: "speak_to_human",
    description: "Ask to talk to a human agent, customer service or a real person instead of the bot.",
    keywords: ["human", "agent", "representative", "real person"],
    templates: [
      "let me talk to a human",
      "I want to speak to a real person",
      "get me an agent",
      "transfer me to customer service",
      "representative",
      "this bot isn't helping, I need someone real",
      "can I call somebody",
      "connect me with support staff",
      "is there a person I can chat with",
      "operator please",
      "I'd rather speak with a live agent about my {account}",
      "stop, just get me a manager",
    ],
  },
  {
    name: "greeting",
    description: "Say hello, good morning or good evening, or make small talk with the assistant.",
    keywords: ["hi", "hello", "hey", "how are you"],
    templates: [
      "hi",
      "hello there",
      "hey, how are you",
      "good morning!",
      "how's it going",
      "what's up",
      "yo",
      "hey assistant, how's your day",
      "nice to meet you",
      "hiya, anybody there?",
      "good evening",
      "howdy",
    ],
  },
]

// Spoken openers and closers; a "hey" in front of a banking question is a realistic source of confusion.
const OPENERS = ["", "", "", "", "", "", "", "", "hey, ", "ok so ", "quick question: ", "um ", "please "]
const CLOSERS = ["", "", "", "", "", "", "", "", " thanks", " please", " asap", "!"]

const fill = (template) => template.replaceAll(/\{(\w+)\}/g, (_, slot) => pick(SLOTS[slot]))

const dress = (text) => {
  const opener = pick(OPENERS)
  const opened = text.includes(opener.trim()) ? text : opener + text
  // "!" after a question reads wrong, so questions only get the polite closers.
  const closer = /^(?:\w+ )?(?:is|did|does|do|has|when|what|how|where|can|any|will)\b/i.test(opened)
    ? pick(CLOSERS).replace("!", "")
    : pick(CLOSERS)
  const sentence = /[?!]$/.test(opened) || opened.includes(closer.trim()) ? opened : opened + closer
  return random() < 0.5 ? sentence.charAt(0).toUpperCase() + sentence.slice(1) : sentence
}

const utterancesFor = ({ name, templates }) => {
  // Keyed by lower case: "Hi" and "hi" are one utterance to a classifier.
  const seen = new Map()
  const order = shuffle(templates)
  for (let attempt = 0; seen.size < UTTERANCES_PER_INTENT && attempt < 1000; attempt++) {
    const text = dress(fill(order[attempt % order.length]))
    if (!seen.has(text.toLowerCase())) seen.set(text.toLowerCase(), text)
  }
  if (seen.size < UTTERANCES_PER_INTENT) throw new Error(`too few distinct utterances for ${name}`)
  return [...seen.values()].map((text) => ({ text, intent: name }))
}

const dataset = {
  intents: INTENTS.map(({ name, description, keywords }) => ({ name, description, keywords })),
  utterances: shuffle(INTENTS.flatMap(utterancesFor)),
}

const target = new URL("../data/intents.json", import.meta.url)
writeFileSync(target, `${JSON.stringify(dataset, null, 2)}\n`)
console.log(`wrote ${dataset.intents.length} intents and ${dataset.utterances.length} utterances to ${target.pathname}`)
