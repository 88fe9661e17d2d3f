// Countries, cities and streets for the demo data. Postal codes and phone numbers are
// patterns (`#` a digit, `A` a capital letter) shaped like each country's real ones;
// `postal: null` where the country has no postal codes in everyday use.

/** Which name and street lists a country draws from. */
export type Culture =
  | 'de' | 'nl' | 'fr' | 'it' | 'es' | 'pt' | 'en' | 'nordic' | 'slavic'
  | 'tr' | 'jp' | 'kr' | 'cn' | 'in' | 'ar';

export interface City {
  name: string;
  postal: string | null;
}

export interface Country {
  code: string; // ISO 3166-1 alpha-2
  culture: Culture;
  phone: string; // pattern, +CC first
  cities: City[];
}

const c = (name: string, postal: string | null): City => ({ name, postal });

export const COUNTRIES: Country[] = [
  { code: 'DE', culture: 'de', phone: '+49 3# #######', cities: [
    c('Hamburg', '2####'), c('Berlin', '1####'), c('Munich', '8####'), c('Cologne', '5####'),
    c('Frankfurt', '6####'), c('Stuttgart', '7####'), c('Düsseldorf', '4####'), c('Leipzig', '04###'),
    c('Bremen', '28###'), c('Hanover', '30###') ] },
  { code: 'AT', culture: 'de', phone: '+43 1 #######', cities: [
    c('Vienna', '1###'), c('Graz', '8###'), c('Linz', '4###'), c('Salzburg', '5###'), c('Innsbruck', '6###') ] },
  { code: 'CH', culture: 'de', phone: '+41 4# ### ## ##', cities: [
    c('Zurich', '8###'), c('Geneva', '12##'), c('Basel', '40##'), c('Bern', '30##'), c('Lausanne', '10##') ] },
  { code: 'NL', culture: 'nl', phone: '+31 2# ### ####', cities: [
    c('Amsterdam', '10## AA'), c('Rotterdam', '30## AA'), c('The Hague', '25## AA'), c('Utrecht', '35## AA'),
    c('Eindhoven', '56## AA') ] },
  { code: 'BE', culture: 'nl', phone: '+32 2 ### ## ##', cities: [
    c('Brussels', '10##'), c('Antwerp', '20##'), c('Ghent', '90##'), c('Liège', '40##') ] },
  { code: 'LU', culture: 'fr', phone: '+352 2# ## ##', cities: [c('Luxembourg', 'L-1###'), c('Esch-sur-Alzette', 'L-4###')] },
  { code: 'FR', culture: 'fr', phone: '+33 1 ## ## ## ##', cities: [
    c('Paris', '750##'), c('Lyon', '6900#'), c('Marseille', '130##'), c('Toulouse', '310##'), c('Lille', '590##'),
    c('Bordeaux', '330##'), c('Nantes', '440##'), c('Strasbourg', '670##') ] },
  { code: 'IT', culture: 'it', phone: '+39 02 #######', cities: [
    c('Milan', '201##'), c('Rome', '001##'), c('Turin', '101##'), c('Naples', '801##'), c('Bologna', '401##'),
    c('Florence', '501##') ] },
  { code: 'ES', culture: 'es', phone: '+34 9## ### ###', cities: [
    c('Madrid', '280##'), c('Barcelona', '080##'), c('Valencia', '460##'), c('Seville', '410##'), c('Bilbao', '480##'),
    c('Málaga', '290##') ] },
  { code: 'PT', culture: 'pt', phone: '+351 21# ### ###', cities: [c('Lisbon', '1###-###'), c('Porto', '4###-###'), c('Braga', '47##-###')] },
  { code: 'GB', culture: 'en', phone: '+44 20 #### ####', cities: [
    c('London', 'EC# #AA'), c('Manchester', 'M# #AA'), c('Birmingham', 'B# #AA'), c('Leeds', 'LS# #AA'),
    c('Glasgow', 'G# #AA'), c('Edinburgh', 'EH# #AA'), c('Bristol', 'BS# #AA'), c('Liverpool', 'L# #AA') ] },
  { code: 'IE', culture: 'en', phone: '+353 1 ### ####', cities: [c('Dublin', 'D0# A###'), c('Cork', 'T12 A###'), c('Galway', 'H91 A###')] },
  { code: 'DK', culture: 'nordic', phone: '+45 3# ## ## ##', cities: [c('Copenhagen', '1###'), c('Aarhus', '8###'), c('Odense', '5###')] },
  { code: 'SE', culture: 'nordic', phone: '+46 8 ### ### ##', cities: [c('Stockholm', '1## ##'), c('Gothenburg', '4## ##'), c('Malmö', '2## ##')] },
  { code: 'NO', culture: 'nordic', phone: '+47 2# ## ## ##', cities: [c('Oslo', '0###'), c('Bergen', '5###'), c('Trondheim', '7###')] },
  { code: 'FI', culture: 'nordic', phone: '+358 9 ### ####', cities: [c('Helsinki', '00###'), c('Tampere', '33###'), c('Turku', '20###')] },
  { code: 'PL', culture: 'slavic', phone: '+48 22 ### ## ##', cities: [
    c('Warsaw', '0#-###'), c('Kraków', '3#-###'), c('Gdańsk', '80-###'), c('Wrocław', '5#-###'), c('Poznań', '6#-###') ] },
  { code: 'CZ', culture: 'slavic', phone: '+420 2## ### ###', cities: [c('Prague', '1## ##'), c('Brno', '6## ##'), c('Ostrava', '7## ##')] },
  { code: 'TR', culture: 'tr', phone: '+90 212 ### ## ##', cities: [c('Istanbul', '34###'), c('Ankara', '06###'), c('Izmir', '35###')] },
  { code: 'US', culture: 'en', phone: '+1 2## 555 ####', cities: [
    c('New York', '100##'), c('Chicago', '606##'), c('San Francisco', '941##'), c('Houston', '770##'), c('Boston', '021##'),
    c('Seattle', '981##'), c('Atlanta', '303##'), c('Los Angeles', '900##'), c('Miami', '331##') ] },
  { code: 'CA', culture: 'en', phone: '+1 4## 555 ####', cities: [
    c('Toronto', 'M#A #A#'), c('Montreal', 'H#A #A#'), c('Vancouver', 'V#A #A#'), c('Calgary', 'T#A #A#') ] },
  { code: 'MX', culture: 'es', phone: '+52 55 #### ####', cities: [c('Mexico City', '0####'), c('Guadalajara', '44###'), c('Monterrey', '64###')] },
  { code: 'BR', culture: 'pt', phone: '+55 11 #### ####', cities: [
    c('São Paulo', '0####-###'), c('Rio de Janeiro', '2####-###'), c('Belo Horizonte', '3####-###'), c('Curitiba', '8####-###') ] },
  { code: 'AR', culture: 'es', phone: '+54 11 #### ####', cities: [c('Buenos Aires', 'C1###AAA'), c('Córdoba', 'X5###AAA'), c('Rosario', 'S2###AAA')] },
  { code: 'CL', culture: 'es', phone: '+56 2 #### ####', cities: [c('Santiago', '8######'), c('Valparaíso', '2######')] },
  { code: 'JP', culture: 'jp', phone: '+81 3 #### ####', cities: [
    c('Tokyo', '1##-####'), c('Osaka', '5##-####'), c('Yokohama', '2##-####'), c('Nagoya', '4##-####'),
    c('Kyoto', '60#-####'), c('Fukuoka', '81#-####'), c('Sapporo', '06#-####') ] },
  { code: 'KR', culture: 'kr', phone: '+82 2 #### ####', cities: [c('Seoul', '0####'), c('Busan', '4####'), c('Incheon', '2####')] },
  { code: 'CN', culture: 'cn', phone: '+86 21 #### ####', cities: [
    c('Shanghai', '200###'), c('Beijing', '100###'), c('Shenzhen', '518###'), c('Guangzhou', '510###'), c('Chengdu', '610###') ] },
  { code: 'HK', culture: 'cn', phone: '+852 2### ####', cities: [c('Hong Kong', null)] },
  { code: 'SG', culture: 'cn', phone: '+65 6### ####', cities: [c('Singapore', '0#####')] },
  { code: 'IN', culture: 'in', phone: '+91 22 #### ####', cities: [
    c('Mumbai', '4000##'), c('Delhi', '1100##'), c('Bengaluru', '5600##'), c('Chennai', '6000##'), c('Pune', '4110##') ] },
  { code: 'AE', culture: 'ar', phone: '+971 4 ### ####', cities: [c('Dubai', null), c('Abu Dhabi', null), c('Sharjah', null)] },
  { code: 'EG', culture: 'ar', phone: '+20 2 #### ####', cities: [c('Cairo', '11###'), c('Alexandria', '21###')] },
  { code: 'MA', culture: 'ar', phone: '+212 522 ######', cities: [c('Casablanca', '20###'), c('Rabat', '10###'), c('Tangier', '90###')] },
  { code: 'ZA', culture: 'en', phone: '+27 11 ### ####', cities: [c('Johannesburg', '2###'), c('Cape Town', '80##'), c('Durban', '40##')] },
  { code: 'AU', culture: 'en', phone: '+61 2 #### ####', cities: [
    c('Sydney', '2###'), c('Melbourne', '3###'), c('Brisbane', '4###'), c('Perth', '6###'), c('Adelaide', '5###') ] },
  { code: 'NZ', culture: 'en', phone: '+64 9 ### ####', cities: [c('Auckland', '10##'), c('Wellington', '60##'), c('Christchurch', '80##')] },
];

/** How a house number goes with a street name. */
type StreetStyle = 'name-number' | 'number-name' | 'caddesi' | 'chome';

export const STREETS: Record<Culture, { style: StreetStyle; names: string[] }> = {
  de: { style: 'name-number', names: ['Hauptstraße', 'Bahnhofstraße', 'Schillerstraße', 'Goethestraße', 'Lindenallee', 'Marktplatz', 'Königstraße', 'Friedrichstraße', 'Am Hafen', 'Rathausplatz', 'Kaiserstraße', 'Mühlenweg', 'Industriestraße'] },
  nl: { style: 'name-number', names: ['Keizersgracht', 'Herengracht', 'Stationsstraat', 'Kerkstraat', 'Marktplein', 'Havenkade', 'Molenweg', 'Coolsingel', 'Meir', 'Rue Neuve'] },
  fr: { style: 'number-name', names: ['rue de la République', 'boulevard Haussmann', 'rue Victor Hugo', 'place de la Bourse', 'rue du Commerce', 'quai des Chartrons', 'avenue Jean Jaurès', 'rue Nationale', 'avenue de la Gare'] },
  it: { style: 'name-number', names: ['Via Roma', 'Corso Vittorio Emanuele II', 'Via Garibaldi', 'Piazza del Duomo', 'Via Dante', 'Via Mazzini', 'Corso Italia', 'Via Nazionale'] },
  es: { style: 'name-number', names: ['Calle Mayor', 'Gran Vía', 'Paseo de la Castellana', 'Avenida Diagonal', 'Calle de Alcalá', 'Avenida de la Constitución', 'Calle Real', 'Avenida Insurgentes Sur', 'Avenida Corrientes', 'Calle Serrano'] },
  pt: { style: 'name-number', names: ['Rua Augusta', 'Avenida da Liberdade', 'Rua das Flores', 'Avenida Paulista', 'Rua Oscar Freire', 'Avenida Atlântica', 'Rua do Comércio', 'Praça do Comércio'] },
  en: { style: 'number-name', names: ['High Street', 'Market Street', 'King Street', 'Queen Street', 'Church Road', 'Station Road', 'Main Street', 'Broadway', 'Park Avenue', 'Harbour Road', 'Victoria Street', 'George Street', 'Elm Street', 'Bay Street'] },
  nordic: { style: 'name-number', names: ['Storgatan', 'Drottninggatan', 'Kungsgatan', 'Strøget', 'Vesterbrogade', 'Karl Johans gate', 'Mannerheimintie', 'Aleksanterinkatu', 'Nygade'] },
  slavic: { style: 'name-number', names: ['ul. Marszałkowska', 'ul. Floriańska', 'ul. Długa', 'ul. Piotrkowska', 'Václavské náměstí', 'Národní', 'Vodičkova', 'Masarykova'] },
  tr: { style: 'caddesi', names: ['İstiklal Caddesi', 'Bağdat Caddesi', 'Atatürk Bulvarı', 'Cumhuriyet Caddesi', 'Kordon Boyu'] },
  jp: { style: 'chome', names: ['Marunouchi', 'Ginza', 'Umeda', 'Nihonbashi', 'Sakae', 'Namba', 'Tenjin', 'Minatomirai', 'Shinjuku'] },
  kr: { style: 'number-name', names: ['Teheran-ro', 'Sejong-daero', 'Gangnam-daero', 'Jong-ro', 'Haeundae-ro'] },
  cn: { style: 'number-name', names: ['Nanjing Road', 'Huaihai Road', "Chang'an Avenue", 'Jianguo Road', "Queen's Road Central", 'Nathan Road', 'Orchard Road', 'Shennan Avenue'] },
  in: { style: 'number-name', names: ['MG Road', 'Marine Drive', 'Connaught Place', 'Park Street', 'Brigade Road', 'Anna Salai', 'FC Road'] },
  ar: { style: 'number-name', names: ['Sheikh Zayed Road', 'Al Wasl Road', 'Corniche Road', 'Tahrir Street', 'Boulevard Mohammed V', 'Avenue Hassan II', 'King Fahd Road'] },
};

export function formatStreet(style: StreetStyle, name: string, n: number, block: number, lot: number): string {
  switch (style) {
    case 'name-number':
      return `${name} ${n}`;
    case 'number-name':
      return `${n} ${name}`;
    case 'caddesi':
      return `${name} No. ${n}`;
    case 'chome':
      return `${block}-${lot}-${n} ${name}`;
  }
}
