import { BaseModel } from './BaseModel';

export class SiteSetting extends BaseModel {
  static override tableName = 'siteSettings';

  id!: number;
  key!: string;
  value!: string;
  createdAt!: number;
  updatedAt!: number;
}
