import type { Culture } from './places.js';

// People's names by culture, plus the words chamber names, e-mail domains, event titles
// and venues are built from.

export const NAMES: Record<Culture, { first: string[]; last: string[] }> = {
  de: {
    first: ['Anna', 'Lukas', 'Sophie', 'Jonas', 'Marie', 'Felix', 'Lena', 'Maximilian', 'Hannah', 'Paul', 'Laura', 'Jan', 'Katharina', 'Tobias', 'Julia', 'Florian', 'Sabine', 'Jürgen', 'Ute', 'Matthias', 'Claudia', 'Stefan', 'Petra', 'Henrik'],
    last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann', 'Braun', 'Krüger', 'Hartmann', 'Lange', 'Huber'],
  },
  nl: {
    first: ['Daan', 'Sanne', 'Bram', 'Femke', 'Lotte', 'Joris', 'Thijs', 'Anouk', 'Maarten', 'Eva', 'Ruben', 'Noor', 'Sem', 'Fleur', 'Pieter', 'Ilse', 'Wouter', 'Lieke'],
    last: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'van Dijk', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'de Groot', 'Bos', 'Vos', 'Peeters', 'Janssens', 'Maes', 'Claes'],
  },
  fr: {
    first: ['Camille', 'Louis', 'Chloé', 'Hugo', 'Léa', 'Lucas', 'Manon', 'Théo', 'Juliette', 'Antoine', 'Élodie', 'Nicolas', 'Margaux', 'Julien', 'Céline', 'François', 'Amélie', 'Mathieu', 'Inès', 'Baptiste'],
    last: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefèvre', 'Michel', 'David', 'Bertrand', 'Roux', 'Vincent', 'Fournier', 'Morel', 'Girard', 'Faure', 'Mercier'],
  },
  it: {
    first: ['Giulia', 'Marco', 'Francesca', 'Alessandro', 'Chiara', 'Luca', 'Sara', 'Matteo', 'Valentina', 'Lorenzo', 'Elena', 'Davide', 'Martina', 'Giorgio', 'Federica', 'Andrea', 'Paola', 'Stefano'],
    last: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca', 'Costa', 'Giordano', 'Mancini', 'Rizzo', 'Lombardi', 'Moretti'],
  },
  es: {
    first: ['Lucía', 'Hugo', 'Martina', 'Pablo', 'Sofía', 'Alejandro', 'Carmen', 'Javier', 'Valentina', 'Diego', 'Isabel', 'Mateo', 'Paula', 'Sergio', 'Elena', 'Andrés', 'Camila', 'Joaquín', 'Ximena', 'Santiago'],
    last: ['García', 'Rodríguez', 'González', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Martín', 'Jiménez', 'Ruiz', 'Hernández', 'Díaz', 'Moreno', 'Muñoz', 'Álvarez', 'Romero', 'Torres', 'Ramírez', 'Flores', 'Castillo'],
  },
  pt: {
    first: ['João', 'Ana', 'Pedro', 'Beatriz', 'Tiago', 'Mariana', 'Rafael', 'Inês', 'Gabriel', 'Larissa', 'Rodrigo', 'Camila', 'Bruno', 'Fernanda', 'Lucas', 'Juliana', 'Gonçalo', 'Leonor'],
    last: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Rodrigues', 'Martins', 'Sousa', 'Fernandes', 'Gonçalves', 'Gomes', 'Lopes', 'Marques', 'Almeida', 'Ribeiro', 'Carvalho', 'Barbosa', 'Araújo'],
  },
  en: {
    first: ['Oliver', 'Amelia', 'James', 'Olivia', 'William', 'Emily', 'Harry', 'Charlotte', 'Jack', 'Grace', 'Thomas', 'Sophie', 'Michael', 'Jessica', 'Daniel', 'Sarah', 'Liam', 'Chloe', 'Ethan', 'Emma', 'Noah', 'Ava', 'Benjamin', 'Megan'],
    last: ['Smith', 'Jones', 'Williams', 'Taylor', 'Brown', 'Davies', 'Evans', 'Wilson', 'Johnson', 'Roberts', 'Walker', 'Wright', 'Thompson', 'Robinson', 'White', 'Hughes', 'Edwards', 'Green', "O'Brien", 'Murphy', 'Kelly', 'Miller', 'Anderson', 'Clarke', 'Campbell', 'MacDonald'],
  },
  nordic: {
    first: ['Emma', 'Oscar', 'Maja', 'Lars', 'Ingrid', 'Erik', 'Astrid', 'Nils', 'Freja', 'Magnus', 'Sigrid', 'Anders', 'Linnea', 'Mikkel', 'Saga', 'Søren', 'Aino', 'Mikko', 'Elin', 'Henrik'],
    last: ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsen', 'Hansen', 'Nielsen', 'Jensen', 'Pedersen', 'Olsen', 'Berg', 'Lindqvist', 'Virtanen', 'Korhonen', 'Mäkinen', 'Haugen', 'Sørensen', 'Lindberg'],
  },
  slavic: {
    first: ['Piotr', 'Anna', 'Katarzyna', 'Tomasz', 'Agnieszka', 'Łukasz', 'Magdalena', 'Michał', 'Zofia', 'Jakub', 'Jiří', 'Petra', 'Tereza', 'Ondřej', 'Lucie', 'Pavel', 'Marta', 'Krzysztof'],
    last: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kamińska', 'Lewandowski', 'Zieliński', 'Szymańska', 'Woźniak', 'Dąbrowski', 'Novák', 'Svoboda', 'Dvořák', 'Černý', 'Procházka', 'Kučera', 'Veselý', 'Horák'],
  },
  tr: {
    first: ['Mehmet', 'Ayşe', 'Mustafa', 'Fatma', 'Emre', 'Zeynep', 'Burak', 'Elif', 'Can', 'Selin', 'Ahmet', 'Deniz', 'Kerem', 'Ece', 'Murat', 'Merve'],
    last: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Yıldırım', 'Öztürk', 'Aydın', 'Özdemir', 'Arslan', 'Doğan', 'Kılıç', 'Aslan', 'Çetin', 'Koç'],
  },
  jp: {
    first: ['Haruto', 'Yui', 'Sota', 'Hina', 'Yuto', 'Aoi', 'Ren', 'Sakura', 'Takumi', 'Yuna', 'Kenji', 'Mei', 'Hiroshi', 'Akiko', 'Daiki', 'Emi'],
    last: ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato', 'Yoshida', 'Yamada', 'Sasaki', 'Yamaguchi', 'Matsumoto', 'Inoue'],
  },
  kr: {
    first: ['Min-jun', 'Seo-yeon', 'Ji-ho', 'Ha-eun', 'Do-yoon', 'Ji-woo', 'Seo-jun', 'Su-bin', 'Hyun-woo', 'Ye-jin', 'Jae-won', 'Eun-ji'],
    last: ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim', 'Han', 'Shin'],
  },
  cn: {
    first: ['Wei', 'Fang', 'Jun', 'Li Na', 'Hao', 'Xin', 'Yang', 'Mei', 'Lei', 'Jing', 'Chen Yu', 'Ming', 'Xiaoling', 'Tao', 'Yan', 'Zhiwei'],
    last: ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou', 'Xu', 'Sun', 'Ma', 'Zhu', 'Lin', 'Wong', 'Chan', 'Tan'],
  },
  in: {
    first: ['Aarav', 'Priya', 'Arjun', 'Ananya', 'Rohan', 'Diya', 'Vikram', 'Kavya', 'Rahul', 'Sneha', 'Aditya', 'Neha', 'Karan', 'Pooja', 'Sanjay', 'Meera'],
    last: ['Sharma', 'Patel', 'Singh', 'Kumar', 'Gupta', 'Reddy', 'Iyer', 'Nair', 'Mehta', 'Shah', 'Rao', 'Joshi', 'Desai', 'Chopra', 'Banerjee', 'Menon'],
  },
  ar: {
    first: ['Mohammed', 'Fatima', 'Ahmed', 'Aisha', 'Omar', 'Layla', 'Youssef', 'Mariam', 'Khalid', 'Nour', 'Hassan', 'Salma', 'Karim', 'Yasmin', 'Tariq', 'Rania'],
    last: ['Al-Mansouri', 'Haddad', 'Nasser', 'Khalil', 'Hassan', 'Ibrahim', 'El-Sayed', 'Farouk', 'Saleh', 'Mansour', 'Aziz', 'Benali', 'El Amrani', 'Qasim', 'Rahman'],
  },
};

/** `{city}` is replaced by the chamber's city. */
export const CHAMBER_NAME_PATTERNS = [
  '{city} Chamber of Commerce',
  '{city} Chamber of Industry',
  '{city} Trade Chamber',
  '{city} Chamber of Commerce and Industry',
  '{city} Chamber of Crafts',
  '{city} Business Chamber',
  '{city} Chamber of Trade and Industry',
  '{city} Board of Trade',
];

/** Tried in turn when a chamber name is already taken. */
export const NAME_QUALIFIERS = ['Greater', 'North', 'South', 'East', 'West', 'Central', 'Metropolitan'];

export const BRANCH_KINDS = ['Office', 'Branch', 'Service Centre', 'Representative Office'];

/** Member e-mail domains: companies under the reserved `.example` TLD, or the RFC 2606 ones. */
export const COMPANY_DOMAINS = [
  'hansa-logistik', 'nordwind-trading', 'alpen-consult', 'bluewave-shipping', 'sunrise-foods', 'ironbridge-eng',
  'greenfield-agro', 'atlas-textiles', 'polaris-tech', 'meridian-finance', 'cedar-builders', 'harbourlight',
  'orchid-pharma', 'summit-legal', 'silverline-motors', 'keystone-energy', 'lumen-design', 'riverside-print',
  'granite-tools', 'aurora-travel', 'vertex-software', 'oakwood-furniture', 'coastal-seafood', 'pioneer-plastics',
  'falcon-aero', 'mosaic-media', 'evergreen-hotels', 'northstar-insurance', 'crescent-imports', 'tidewater-ports',
].map((d) => `${d}.example`);
export const GENERIC_DOMAINS = ['example.com', 'example.org', 'example.net'];

export const EVENT_TITLES = [
  'Annual General Meeting', 'Export Breakfast', 'Networking Evening', 'New Year Reception', 'Trade Fair Delegation',
  "Founders' Workshop", 'Tax Update Seminar', 'Digitalisation Forum', 'Sustainability Roundtable', "Members' Lunch",
  'Apprenticeship Fair', 'Summer Party', 'Customs and Export Control Seminar', 'Women in Business Meetup',
  'Start-up Pitch Night', 'Supply Chain Conference', 'Energy Costs Briefing', 'Legal Clinic', 'Meet the Ambassador',
  'Innovation Award Ceremony', 'Regional Economic Outlook', 'AI for SMEs Workshop', 'Trade Mission Debrief',
  'Board Meeting', 'Christmas Reception', 'Golf Day', 'Cybersecurity Breakfast', 'Family Business Forum',
];

export const HOTELS = ['Grand Hotel', 'Hotel Excelsior', 'Park Plaza', 'Hotel Continental', 'Harbour View Hotel', 'Hotel Metropol'];

const FOLD: Record<string, string> = { ø: 'o', ł: 'l', ß: 'ss', æ: 'ae', ı: 'i', đ: 'd', œ: 'oe' };

/** Lower-case ASCII letters and digits only: "Müller" → "muller", "O'Brien" → "obrien". */
export function slug(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFD')
    .replace(/[øłßæıđœ]/g, (ch) => FOLD[ch]!)
    .replace(/[^a-z0-9]/g, '');
}
