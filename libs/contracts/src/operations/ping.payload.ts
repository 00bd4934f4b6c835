import { IsBoolean, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Payload of `ping`: the operators' probe and the fault tests' workload. */
export class PingPayload {
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  message?: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(3600)
  sleep_seconds?: number;

  @IsOptional()
  @IsBoolean()
  fail?: boolean;
}
