import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';

/** Who may read a row from now on: everyone (`public`) or its owner and staff (`owner`). */
export class SetVisibilityRequest {
  @ApiProperty({
    enum: ['public', 'owner'],
    example: 'public',
    description:
      'public: anyone with the link, guests included, and listed to all; owner: its owner and staff',
  })
  @IsIn(['public', 'owner'])
  visibility!: 'public' | 'owner';
}
